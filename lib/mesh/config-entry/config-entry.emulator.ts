/**
 * The configuration-entry interface (the spec leaves it out; this follows the mesh system's own):
 * - `PUT /v1/config[?cas=<index>]` with a `{Kind, Name, …}` body answers `true`, or `false`
 *   when the `cas` check failed (`cas=0`: only if absent; else only if `ModifyIndex` matches);
 * - `GET /v1/config/<kind>/<name>` answers the entry with `Namespace`, `CreateIndex`, `ModifyIndex`,
 *   404 `Config entry not found for "<kind>" / "<name>"`;
 * - `GET /v1/config/<kind>` lists a namespace's entries of a kind (`ns=*`: every namespace);
 * - `DELETE /v1/config/<kind>/<name>` answers `{}` (with `?cas=`: `true`/`false`).
 * Undecodable bodies are 400 "Request decoding failed: …"; invalid entries and entries that would
 * make some chain fail to compile are 500 with the message, as the mesh system answers them.
 */
import { Router } from '../../core/emulator-kit/router';
import * as crypto from 'crypto';
import { EmuRequest, EmuResponse, json } from '../../core/emulator-kit/types';
import { Caller } from '../emulator/acl';
import { consistencyOf, permissionDenied, queryMeta, RequestContext, selectNamespace, text } from '../emulator/context';
import { blockingOf, Change } from '../emulator/blocking';
import { StoredEntry } from '../emulator/state';
import {
  CompileError, compileDiscoveryChain, ConfigEntry, decodeEntry, DecodeError, entryKey, EntryValidationError, isEntryKind,
  PROXY_DEFAULTS, servicesNamedBy, servicesReaching, validateEntry, withEntry, ChainShape, SERVICE_INTENTIONS,
  intentionPrecedence, newL7IntentionError,
} from '../compiler';

export function registerConfigEntryRoutes(router: Router<RequestContext>): void {
  router.add('PUT', '/v1/config', putEntry);
  router.add('GET', '/v1/config/:kind', listEntries);
  router.add('GET', '/v1/config/:kind/:name', getEntry);
  router.add('DELETE', '/v1/config/:kind/:name', deleteEntry);
}

function canRead(caller: Caller, kind: string, ns: string, name: string): boolean {
  // Every token may read proxy-defaults, as in the mesh system; intentions with the service's read or its intentions rule.
  if (kind === SERVICE_INTENTIONS && caller.canWriteIntentions(ns, name)) return true;
  return kind === PROXY_DEFAULTS || caller.canReadService(ns, name);
}

function checkWrite(caller: Caller, kind: string, ns: string, name: string): EmuResponse | undefined {
  // The destination's `intentions = "write"` (every service's for `*`), as the mesh checks it.
  if (kind === SERVICE_INTENTIONS) return caller.canWriteIntentions(ns, name) ? undefined : permissionDenied(caller, 'intention:write', name);
  if (kind === PROXY_DEFAULTS) return caller.operatorWrite ? undefined : permissionDenied(caller, 'operator:write', name);
  return caller.canWriteService(ns, name) ? undefined : permissionDenied(caller, 'service:write', name);
}

/** An unknown kind in a path: 500, as the real server answers it. */
function badKind(kind: string): EmuResponse {
  return text(500, `invalid config entry kind: ${kind}`);
}

/** Fields Consul 1.16 answers on entries of these kinds, empty unless set (the emulator never sets them). */
const EMPTY_1_16_FIELDS: Record<string, string[]> = {
  'service-defaults': ['TransparentProxy', 'MeshGateway', 'Expose'],
  'proxy-defaults': ['TransparentProxy', 'MeshGateway', 'Expose'],
};

/**
 * An entry as read: its fields, then `Namespace`, `CreateIndex`, `ModifyIndex`. As Consul 1.16 Community
 * Edition: no `Namespace`, its empty structs, and a `Hash` (a uint64, often beyond 2^53) before the indexes.
 */
export function renderStored(s: StoredEntry, shape: ChainShape = 'spec'): Record<string, unknown> {
  const { Namespace: _ignored, ...fields } = s.entry as ConfigEntry & { Namespace?: string };
  if (shape !== 'consul-1.16') return { ...fields, Namespace: s.namespace, CreateIndex: s.createIndex, ModifyIndex: s.modifyIndex };
  const out: Record<string, unknown> = { ...fields };
  for (const f of EMPTY_1_16_FIELDS[s.entry.Kind] ?? []) out[f] ??= {};
  return { ...out, Hash: HASH_MARK + entryHash(s), CreateIndex: s.createIndex, ModifyIndex: s.modifyIndex };
}

const HASH_MARK = '\u0000hash:';

/** A stable uint64 of an entry's fields, as a decimal string. */
function entryHash(s: StoredEntry): string {
  return crypto.createHash('sha256').update(JSON.stringify(s.entry)).digest().readBigUInt64BE(0).toString();
}

/** JSON with each `Hash` written as the bare uint64 it is (beyond what a JavaScript number holds). */
function entryJson(status: number, value: unknown, headers: Record<string, string>): EmuResponse {
  const body = JSON.stringify(value).replace(/"\\u0000hash:(\d+)"/g, '$1');
  return { status, body, contentType: 'application/json', headers };
}

/** JSON with object keys sorted, to compare two entries whatever the order their keys came in. */
function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, (x as Record<string, unknown>)[k]])) : x));
}

function parseCas(req: EmuRequest): number | undefined | { error: string } {
  const raw = req.query.get('cas');
  // `?cas=` with no value is no check-and-set, as the real server reads it.
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) return { error: `strconv.ParseUint: parsing ${JSON.stringify(raw)}: invalid syntax` };
  return Number(raw);
}

/**
 * The compile error a change would introduce (a chain that compiled before and no longer does).
 * Only the chains that can involve the changed entry are compiled (all of them for proxy-defaults).
 */
function graphError(ctx: RequestContext, before: ConfigEntry[], after: ConfigEntry[], changed?: ConfigEntry): string | undefined {
  const compiles = (entries: ConfigEntry[], namespace: string, service: string): string | undefined => {
    try {
      compileDiscoveryChain({ service, namespace, entries, datacenter: ctx.core.datacenter, trustDomain: ctx.core.trustDomain, shape: ctx.core.shape });
      return undefined;
    } catch (e) {
      if (e instanceof CompileError) return e.message;
      throw e;
    }
  };
  const l7 = newL7IntentionError(before, after);
  if (l7) return l7;
  // Intentions compile into no chain.
  if (changed?.Kind === SERVICE_INTENTIONS) return undefined;
  const all = [...after, ...before];
  const candidates = !changed || changed.Kind === PROXY_DEFAULTS
    ? servicesNamedBy(all)
    : servicesReaching(all, new Set(servicesNamedBy([changed]).map((s) => `${s.namespace}/${s.service}`)));
  for (const { namespace, service } of candidates) {
    const err = compiles(after, namespace, service);
    if (err && !compiles(before, namespace, service)) return err;
  }
  return undefined;
}

function putEntry(req: EmuRequest, _p: unknown, ctx: RequestContext): EmuResponse {
  const cas = parseCas(req);
  if (typeof cas === 'object') return text(500, cas.error);
  let entry: ConfigEntry;
  try {
    const raw = JSON.parse(req.body.toString('utf8') || 'null');
    if (ctx.core.shape === 'consul-1.16' && raw && typeof raw === 'object' && Object.keys(raw).some((k) => k.toLowerCase() === 'namespace')) {
      return text(400, 'Request decoding failed: 1 error occurred:\n\t* invalid config key "Namespace", namespaces are a consul enterprise feature\n');
    }
    entry = decodeEntry(raw);
  } catch (e) {
    const msg = e instanceof DecodeError || e instanceof SyntaxError ? (e as Error).message : String(e);
    // Consul 1.16 words an unknown key as its own decoder does (the first one only, here).
    const unknown = /^'([^']*)' has invalid keys: (.+)$/.exec(msg);
    if (unknown && ctx.core.shape === 'consul-1.16') {
      return text(400, `Request decoding failed: 1 error occurred:\n\t* invalid config key "${unknown[1] ? `${unknown[1]}.` : ''}${unknown[2]}"\n`);
    }
    return text(400, `Request decoding failed: ${msg}`);
  }
  const namespace = entry.Kind === PROXY_DEFAULTS ? (entry.Namespace || 'default') : (entry.Namespace || selectNamespace(req, ctx.caller));
  entry = { ...entry, Namespace: namespace } as ConfigEntry;
  try {
    validateEntry(entry, { asServer: true });
    if (entry.Kind === SERVICE_INTENTIONS) {
      // As the mesh stores sources: typed `consul`, each with its precedence (whatever the body said).
      const name = entry.Name;
      entry = { ...entry, Sources: (entry.Sources ?? []).map((s) => ({ ...s, Precedence: intentionPrecedence(name, s.Name ?? ''), Type: 'consul' })) };
    }
  } catch (e) {
    if (e instanceof EntryValidationError) return text(500, e.message);
    throw e;
  }
  const denied = checkWrite(ctx.caller, entry.Kind, namespace, entry.Name);
  if (denied) return denied;
  const state = ctx.core.state;
  const key = entryKey(entry);
  const existing = state.entries[key];
  // As the real server: a write that changes nothing succeeds at once (no index moves, no cas check).
  const { Namespace: _n, ...incoming } = entry as ConfigEntry & { Namespace?: string };
  if (existing && canonicalJson(existing.entry) === canonicalJson(incoming)) return json(200, true);
  if (cas !== undefined && (existing ? existing.modifyIndex !== cas : cas !== 0)) return json(200, false);
  const before = ctx.core.allEntries();
  const err = graphError(ctx, before, withEntry(before, entry), entry);
  if (err) return text(500, err);
  const index = ++state.index;
  const { Namespace: _ns, ...fields } = entry as ConfigEntry & { Namespace?: string };
  state.entries[key] = {
    entry: fields as ConfigEntry, namespace, createIndex: existing?.createIndex ?? index, modifyIndex: index,
  };
  ctx.core.watchers.notify({ kind: entry.Kind, namespace, name: entry.Name });
  return json(200, true);
}

function getEntry(req: EmuRequest, p: Record<string, string>, ctx: RequestContext): EmuResponse {
  if (!isEntryKind(p.kind)) return badKind(p.kind);
  const consistency = consistencyOf(req);
  if (typeof consistency !== 'string') return text(400, consistency.error);
  const ns = p.kind === PROXY_DEFAULTS ? 'default' : selectNamespace(req, ctx.caller);
  if (!canRead(ctx.caller, p.kind, ns, p.name)) return permissionDenied(ctx.caller, 'service:read', p.name);
  const stored = ctx.core.state.entries[`${p.kind}/${ns}/${p.name}`];
  if (!stored) return text(404, `Config entry not found for "${p.kind}" / "${p.name}"`, queryMeta(ctx.core.state.index, consistency));
  return entryJson(200, renderStored(stored, ctx.core.shape), queryMeta(ctx.core.state.index, consistency));
}

async function listEntries(req: EmuRequest, p: Record<string, string>, ctx: RequestContext): Promise<EmuResponse> {
  if (!isEntryKind(p.kind)) return badKind(p.kind);
  const consistency = consistencyOf(req);
  if (typeof consistency !== 'string') return text(400, consistency.error);
  const blocking = blockingOf(req);
  if ('error' in blocking) return text(400, blocking.error);
  const ns = selectNamespace(req, ctx.caller);
  // A blocking query (as the mesh system serves on this list too) waits for a change of this kind.
  if (blocking.index > 0 && blocking.index >= ctx.core.state.index) {
    await ctx.core.watchers.wait(blocking.waitMs, (c: Change) => c.kind === p.kind);
  }
  const all = Object.values(ctx.core.state.entries)
    .filter((s) => s.entry.Kind === p.kind && (ns === '*' || p.kind === PROXY_DEFAULTS || s.namespace === ns));
  const list = all
    .filter((s) => canRead(ctx.caller, p.kind, s.namespace, s.entry.Name))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.entry.Name.localeCompare(b.entry.Name))
    .map((s) => renderStored(s, ctx.core.shape));
  // As the real server: a list the token's ACL filtered says so.
  const filtered: Record<string, string> = list.length < all.length ? { 'X-Mesh-Results-Filtered-By-Acls': 'true' } : {};
  return entryJson(200, list, { ...queryMeta(ctx.core.state.index, consistency), ...filtered });
}

function deleteEntry(req: EmuRequest, p: Record<string, string>, ctx: RequestContext): EmuResponse {
  if (!isEntryKind(p.kind)) return badKind(p.kind);
  const cas = parseCas(req);
  if (typeof cas === 'object') return text(500, cas.error);
  const ns = p.kind === PROXY_DEFAULTS ? 'default' : selectNamespace(req, ctx.caller);
  const denied = checkWrite(ctx.caller, p.kind, ns, p.name);
  if (denied) return denied;
  const state = ctx.core.state;
  const key = `${p.kind}/${ns}/${p.name}`;
  const existing = state.entries[key];
  // An absent entry is deleted whatever the index (the real server answers true).
  if (cas !== undefined && existing && existing.modifyIndex !== cas) return json(200, false);
  if (existing) {
    const before = ctx.core.allEntries();
    const after = withEntry(before, { ...existing.entry, Namespace: ns } as ConfigEntry, true);
    const err = graphError(ctx, before, after, { ...existing.entry, Namespace: ns } as ConfigEntry);
    if (err) return text(500, err);
    delete state.entries[key];
    state.index++;
    ctx.core.watchers.notify({ kind: p.kind, namespace: ns, name: p.name });
  }
  return json(200, cas !== undefined ? true : {});
}
