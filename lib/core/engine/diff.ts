import { isSecretRef } from '../model';
import { fieldHmac } from '../crypto/field-hmac';
import { FieldChange, ResourceHandler, Spec } from './handler';
import { isUnknown, ResolvedSpec } from './resolve-spec';
import { StateRecord } from '../state/state-model';

/** Flattens a value into leaf paths (`a.b`, `list[0].x`); secrets, unknowns and empty containers are leaves. */
export function flatten(v: unknown, prefix = '', out: Map<string, unknown> = new Map()): Map<string, unknown> {
  if (prefix === '' && out.size === 0 && isPlainObject(v) && Object.keys(v).every(isPlainKey)) {
    // The top level: the paths under each key are grouped on the way (see `under`).
    const groups = new Map<string, string[]>();
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (x === undefined) continue;
      const group: string[] = [];
      flattenInto(x, k, out, group);
      groups.set(k, group);
    }
    byTopCache.set(out, groups);
    return out;
  }
  flattenInto(v, prefix, out, undefined);
  return out;
}

/** A top-level key that is its paths' `topKey`: not empty, no `.` or `[`. */
function isPlainKey(k: string): boolean {
  return k !== '' && topKey(k) === k;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !isSecretRef(v) && !isUnknown(v);
}

function flattenInto(v: unknown, prefix: string, out: Map<string, unknown>, group: string[] | undefined): void {
  const leaf = (path: string, value: unknown) => {
    out.set(path, value);
    group?.push(path);
  };
  if (isSecretRef(v) || isUnknown(v)) return leaf(prefix, v);
  if (Array.isArray(v)) {
    if (v.length === 0) leaf(prefix, []);
    v.forEach((x, i) => flattenInto(x, `${prefix}[${i}]`, out, group));
    return;
  }
  if (v !== null && typeof v === 'object') {
    let empty = true;
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined) continue;
      empty = false;
      flattenInto(x, prefix ? `${prefix}.${k}` : k, out, group);
    }
    if (empty && prefix) leaf(prefix, {});
    return;
  }
  leaf(prefix, v);
}

export function topKey(path: string): string {
  // A loop rather than a regular expression: asked for every leaf of every object of a plan.
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 46 /* . */ || c === 91 /* [ */) return path.slice(0, i);
  }
  return path;
}

const byTopCache = new WeakMap<Map<string, unknown>, Map<string, string[]>>();

/** The paths of a flattened value under one top-level key (grouped once per map). */
function under(map: Map<string, unknown>, key: string): string[] {
  let groups = byTopCache.get(map);
  if (!groups) {
    groups = new Map();
    for (const p of map.keys()) {
      const t = topKey(p);
      const g = groups.get(t);
      if (g) g.push(p); else groups.set(t, [p]);
    }
    byTopCache.set(map, groups);
  }
  return groups.get(key) ?? [];
}

export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Two different strings are never the same JSON; anything else compares as JSON (NaN and null are both `null`).
  if (typeof a === 'string' && typeof b === 'string') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function change(path: string, before: unknown, after: unknown, sensitive: boolean, handler: ResourceHandler, unknown = false): FieldChange {
  // Built field by field (one object per change, keys in the order plans have always had).
  const c: { -readonly [K in keyof FieldChange]: FieldChange[K] } = { path } as FieldChange;
  if (sensitive) {
    // A sensitive field keeps only whether each side exists (an addition, a removal), never a value.
    // (A value known only after apply is a change: its before is not always at hand.)
    if (!unknown) {
      if (before === undefined && after !== undefined) c.added = true;
      if (before !== undefined && after === undefined) c.removed = true;
    }
  } else {
    c.before = before;
    c.after = unknown ? undefined : after;
  }
  c.sensitive = sensitive;
  c.replace = handler.replaceFields !== undefined && handler.replaceFields.includes(topKey(path));
  if (unknown) c.unknown = true;
  return c;
}

/**
 * Field changes that take the actual object to the desired spec. Fields the API returns are
 * compared with it; a field it never returns (write-only) is compared with the last apply:
 * a secret by its HMAC, anything else by value.
 */
export function diffSpec(desired: ResolvedSpec, actual: Spec | undefined, prior: StateRecord | undefined,
  handler: ResourceHandler): FieldChange[] {
  // A side that is not there is the shared empty map (never written to): a first apply's creates flatten nothing for it.
  return diffFlattened(desired, actual, prior, handler, actual ? flatten(actual) : NO_FIELDS, prior ? flatten(prior.spec ?? {}) : NO_FIELDS);
}

/** The flattening of nothing (`flatten({})`), shared: only read. */
const NO_FIELDS: Map<string, unknown> = new Map();

/** `diffSpec` and `driftOf` of one read of a managed object, each side flattened once for both. */
export function diffAndDrift(desired: ResolvedSpec, actual: Spec, prior: StateRecord, handler: ResourceHandler): { changes: FieldChange[]; drift: FieldChange[] } {
  const a = flatten(actual);
  const p = flatten(prior.spec);
  return { changes: diffFlattened(desired, actual, prior, handler, a, p), drift: driftFlattened(actual, prior, handler, a, p) };
}

function diffFlattened(desired: ResolvedSpec, actual: Spec | undefined, prior: StateRecord | undefined, handler: ResourceHandler,
  a: Map<string, unknown>, p: Map<string, unknown>): FieldChange[] {
  const d = flatten(desired.value);
  const sensitiveTop = new Set(handler.sensitiveFields ?? []);
  const changes: FieldChange[] = [];
  for (const key of Object.keys(desired.value)) {
    const isSensitive = (path: string) => sensitiveTop.has(key) || desired.secretPaths.has(path) || isSecretRef(p.get(path));
    if (actual && key in actual) {
      const paths = new Set([...under(d, key), ...under(a, key)]);
      for (const path of paths) {
        const want = d.get(path);
        if (isUnknown(want)) { changes.push(change(path, a.get(path), want, isSensitive(path), handler, true)); continue; }
        if (!same(want, a.get(path))) changes.push(change(path, a.get(path), want, isSensitive(path), handler));
      }
    } else {
      // Not returned by the API: compared with what the last apply sent; a part the app dropped is a change.
      if (prior && actual) {
        for (const path of under(p, key)) {
          if (!d.has(path) && !under(d, key).some((x) => x.startsWith(path) || path.startsWith(x))) {
            changes.push(change(path, p.get(path), undefined, isSensitive(path), handler));
          }
        }
      }
      for (const path of under(d, key)) {
        const want = d.get(path);
        if (isUnknown(want)) { changes.push(change(path, undefined, want, isSensitive(path), handler, true)); continue; }
        if (desired.secretPaths.has(path)) {
          // The HMACs stand for the two sides (change() keeps only whether each exists).
          if (!prior || prior.hmacs[path] !== desired.hmacs[path]) changes.push(change(path, prior?.hmacs[path] ?? p.get(path), desired.hmacs[path], true, handler));
        } else if (!actual) {
          changes.push(change(path, undefined, want, isSensitive(path), handler));
        } else if (!prior || !same(p.get(path), want)) {
          changes.push(change(path, p.get(path), want, isSensitive(path), handler));
        }
      }
    }
  }
  return changes;
}

/**
 * Changes made outside converge: the actual object against what the last apply wrote.
 * Secrets are compared by HMAC and never shown.
 */
export function driftOf(actual: Spec, prior: StateRecord, handler: ResourceHandler): FieldChange[] {
  return driftFlattened(actual, prior, handler, flatten(actual), flatten(prior.spec));
}

function driftFlattened(actual: Spec, prior: StateRecord, handler: ResourceHandler, a: Map<string, unknown>, p: Map<string, unknown>): FieldChange[] {
  const sensitiveTop = new Set(handler.sensitiveFields ?? []);
  const drift: FieldChange[] = [];
  for (const key of Object.keys(actual)) {
    if (!(key in prior.spec)) continue;
    const paths = new Set([...under(a, key), ...under(p, key)]);
    for (const path of paths) {
      const was = p.get(path);
      const now = a.get(path);
      if (isSecretRef(was)) {
        if (now === undefined || prior.hmacs[path] !== fieldHmac(prior.salt, path, now)) {
          drift.push(change(path, prior.hmacs[path] ?? was, now, true, handler));
        }
        continue;
      }
      if (!same(was, now)) drift.push(change(path, was, now, sensitiveTop.has(key), handler));
    }
  }
  return drift;
}

/** Changes against the last apply only (`--refresh=false`): no read of the API. */
export function diffAgainstPrior(desired: ResolvedSpec, prior: StateRecord, handler: ResourceHandler): FieldChange[] {
  const d = flatten(desired.value);
  const p = flatten(prior.spec);
  const sensitiveTop = new Set(handler.sensitiveFields ?? []);
  const changes: FieldChange[] = [];
  for (const path of new Set([...d.keys(), ...p.keys()])) {
    const sensitive = sensitiveTop.has(topKey(path)) || desired.secretPaths.has(path) || isSecretRef(p.get(path));
    const want = d.get(path);
    if (isUnknown(want)) { changes.push(change(path, p.get(path), want, sensitive, handler, true)); continue; }
    if (desired.secretPaths.has(path)) {
      if (prior.hmacs[path] !== desired.hmacs[path]) changes.push(change(path, prior.hmacs[path] ?? p.get(path), desired.hmacs[path], true, handler));
    } else if (!same(p.get(path), want)) {
      changes.push(change(path, p.get(path), want, sensitive, handler));
    }
  }
  return changes;
}
