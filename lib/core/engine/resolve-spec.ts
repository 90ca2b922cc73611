import { isAttrRef, isSecretRef, SecretRef } from '../model';
import { fieldHmac } from '../crypto/field-hmac';
import { resolveSecret } from '../crypto/resolve-secret';
import { Spec } from './handler';

/** Marks a value that is known only after a dependency is applied. */
export const UNKNOWN = Object.freeze({ $unknown: true });
export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN || (typeof v === 'object' && v !== null && (v as { $unknown?: boolean }).$unknown === true);
}

/**
 * A referenced value that is a secret (a generated TOTP URL, a token, a data source's secret
 * data): wherever it flows it stays a secret (masked in plans, an HMAC in state).
 */
export class SensitiveValue {
  constructor(public readonly value: unknown, public readonly source: string) {}
}

/** A reference to a key inside an output (`data.token`) that the output does not have. */
export class MissingAttribute extends Error {}

/**
 * The value of `attr` among an object's outputs: an output (`version`), or one key of a map output
 * (`data.password`: the key `password` of the map `data`; what follows the first dot is the key,
 * dots included). Undefined when the output is absent; throws MissingAttribute when the map is
 * there without the key.
 */
export function attrValue(outputs: Record<string, unknown> | undefined, attr: string): unknown {
  if (!outputs) return undefined;
  if (attr in outputs) return outputs[attr];
  const dot = attr.indexOf('.');
  if (dot < 0 || !(attr.slice(0, dot) in outputs)) return undefined;
  const top = attr.slice(0, dot);
  const key = attr.slice(dot + 1);
  const map = outputs[top];
  if (map !== null && typeof map === 'object' && !Array.isArray(map) && Object.prototype.hasOwnProperty.call(map, key)) {
    return (map as Record<string, unknown>)[key];
  }
  throw new MissingAttribute(`its ${top} has no key "${key}"`);
}

/** The output an attribute is in (`data` for `data.password`). */
export function topAttr(attr: string): string {
  const dot = attr.indexOf('.');
  return dot < 0 ? attr : attr.slice(0, dot);
}

/**
 * Looks up `attr` of the object at `address` (of `stack`, for a cross-stack reference; else this
 * stack's); UNKNOWN when not yet known, a SensitiveValue for a secret.
 */
export type RefLookup = (address: string, attr: string, stack?: string) => unknown;

/** A reference that cannot be resolved; resolveSpec names the construct that holds it. */
export class RefError extends Error {}

/** A spec with secrets and references resolved. */
export interface ResolvedSpec {
  /** Secrets in clear, references filled: only for handlers, never stored or printed. */
  readonly value: Spec;
  /** The spec as state keeps it: secrets as their source, references filled (secret ones as their source). */
  readonly stored: Spec;
  /** HMAC of each secret leaf, by path. */
  readonly hmacs: Record<string, string>;
  /** Paths of secret leaves. */
  readonly secretPaths: Set<string>;
  /** Whether some value is unknown until apply. */
  readonly hasUnknown: boolean;
  /** Each unknown reference: `<field> refers to <address>.<attribute>`. */
  readonly unknownRefs?: readonly string[];
}

/** What a spec without secrets or unknown references shares (never changed: only resolveSpec fills its own). */
const NO_HMACS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_SECRET_PATHS: Set<string> = new Set();
const NO_UNKNOWN_REFS: readonly string[] = Object.freeze([]);

/**
 * Resolves secrets and references of a synthesized spec. `salt` is the state record's (see
 * fieldHmac); undefined only for records written before salts existed.
 */
export function resolveSpec(raw: Record<string, unknown>, where: string, lookup: RefLookup, salt?: string): ResolvedSpec {
  // Made on the first secret (or unknown reference): most specs have none, and a plan holds one per object.
  let hmacs: Record<string, string> | undefined;
  let secretPaths: Set<string> | undefined;
  let hasUnknown = false;
  let unknownRefs: string[] | undefined;
  const secret = (value: unknown, source: SecretRef, p: string): [unknown, unknown] => {
    (hmacs ??= {})[p] = fieldHmac(salt, p, value);
    (secretPaths ??= new Set()).add(p);
    return [value, source];
  };
  // undefined: `v` holds no secret and no reference, and is shared as it is by the value and the stored spec
  // (specs are never changed in place: a copy of every spec of a large stack, twice, is what a plan held most).
  const walk = (v: unknown, p: string): [unknown, unknown] | undefined => {
    if (v === null || typeof v !== 'object') return undefined;
    if (isSecretRef(v)) return secret(resolveSecret(v, `${where}: ${p}`), v, p);
    if (isAttrRef(v)) {
      let value: unknown;
      try {
        value = lookup(v.$ref, v.attr, v.stack);
      } catch (e) {
        if (e instanceof MissingAttribute) throw new Error(`${where}: ${p} refers to "${v.attr}" of ${v.$ref}, which has no such value (${e.message})`);
        if (e instanceof RefError) throw new Error(`${where}: ${e.message}`);
        throw e;
      }
      if (v.secret && !(value instanceof SensitiveValue) && !isUnknown(value)) value = new SensitiveValue(value, `${v.$ref}.${v.attr}`);
      if (value instanceof SensitiveValue) return secret(value.value, { $secret: { ref: value.source } }, p);
      if (isUnknown(value)) {
        hasUnknown = true;
        (unknownRefs ??= []).push(`${p} refers to ${v.stack ? `${v.stack}/` : ''}${v.$ref}.${v.attr}`);
      }
      return [value, value];
    }
    if (Array.isArray(v)) {
      let pairs: ([unknown, unknown] | undefined)[] | undefined;
      for (let i = 0; i < v.length; i++) {
        if (v[i] === null || typeof v[i] !== 'object') continue; // a plain value: no path to make
        const pair = walk(v[i], `${p}[${i}]`);
        if (pair) (pairs ??= [])[i] = pair;
      }
      if (!pairs) return undefined;
      const changed = pairs;
      return [v.map((x, i) => (changed[i] ? changed[i]![0] : x)), v.map((x, i) => (changed[i] ? changed[i]![1] : x))];
    }
    const entries = Object.entries(v);
    let pairs: ([unknown, unknown] | undefined)[] | undefined;
    for (let i = 0; i < entries.length; i++) {
      const [k, x] = entries[i];
      if (x === null || typeof x !== 'object') continue;
      const pair = walk(x, p ? `${p}.${k}` : k);
      if (pair) (pairs ??= [])[i] = pair;
    }
    if (!pairs) return undefined;
    const a: Record<string, unknown> = {};
    const b: Record<string, unknown> = {};
    entries.forEach(([k, x], i) => {
      a[k] = pairs![i] ? pairs![i]![0] : x;
      b[k] = pairs![i] ? pairs![i]![1] : x;
    });
    return [a, b];
  };
  const [value, stored] = walk(raw, '') ?? [raw, raw];
  return { value: value as Spec, stored: stored as Spec, hmacs: hmacs ?? NO_HMACS, secretPaths: secretPaths ?? NO_SECRET_PATHS, hasUnknown,
    unknownRefs: unknownRefs ?? NO_UNKNOWN_REFS };
}
