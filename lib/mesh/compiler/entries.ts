/**
 * Configuration entries in the mesh system's own JSON shape (PascalCase keys), and their
 * decoding as the mesh system does it: keys match case-insensitively and in snake_case,
 * numbers and booleans may come as strings, durations as Go strings or nanoseconds,
 * unknown keys are refused. Decoded entries are canonical: durations as Go strings
 * (`1m0s`), empty values left out.
 */
import { canonicalDuration } from './duration';

export const SERVICE_DEFAULTS = 'service-defaults';
export const PROXY_DEFAULTS = 'proxy-defaults';
export const SERVICE_RESOLVER = 'service-resolver';
export const SERVICE_SPLITTER = 'service-splitter';
export const SERVICE_ROUTER = 'service-router';
export const SERVICE_INTENTIONS = 'service-intentions';
/** The kinds that compile into discovery chains. */
export const CHAIN_ENTRY_KINDS = [SERVICE_DEFAULTS, PROXY_DEFAULTS, SERVICE_RESOLVER, SERVICE_SPLITTER, SERVICE_ROUTER] as const;
/** Every kind converge manages: the chain kinds, and intentions (which decide who may call, not where calls go). */
export const ENTRY_KINDS = [...CHAIN_ENTRY_KINDS, SERVICE_INTENTIONS] as const;
export type EntryKind = typeof ENTRY_KINDS[number];

export const DEFAULT_NAMESPACE = 'default';
export const MESH_GATEWAY_MODES = ['', 'none', 'local', 'remote'];

export interface MeshGatewayConfig { Mode?: string }

export interface ServiceDefaultsEntry {
  Kind: 'service-defaults'; Name: string; Namespace?: string;
  Protocol?: string; MeshGateway?: MeshGatewayConfig; ExternalSNI?: string; Meta?: Record<string, string>;
}
export interface ProxyDefaultsEntry {
  Kind: 'proxy-defaults'; Name: string; Namespace?: string;
  Config?: Record<string, unknown>; MeshGateway?: MeshGatewayConfig; Meta?: Record<string, string>;
}
export interface ResolverSubset { Filter?: string; OnlyPassing?: boolean }
export interface ResolverRedirect { Service?: string; ServiceSubset?: string; Namespace?: string; Datacenter?: string }
export interface ResolverFailover { Service?: string; ServiceSubset?: string; Namespace?: string; Datacenters?: string[] }
export interface ServiceResolverEntry {
  Kind: 'service-resolver'; Name: string; Namespace?: string;
  ConnectTimeout?: string; DefaultSubset?: string; Subsets?: Record<string, ResolverSubset>;
  Redirect?: ResolverRedirect; Failover?: Record<string, ResolverFailover>; Meta?: Record<string, string>;
}
export interface ServiceSplit { Weight: number; Service?: string; ServiceSubset?: string; Namespace?: string }
export interface ServiceSplitterEntry {
  Kind: 'service-splitter'; Name: string; Namespace?: string; Splits?: ServiceSplit[]; Meta?: Record<string, string>;
}
export interface HeaderMatch { Name?: string; Exact?: string; Present?: boolean; Prefix?: string; Suffix?: string }
export interface RouteMatch { HTTP?: { PathPrefix?: string; PathExact?: string; Header?: HeaderMatch[] } }
export interface RouteDestination {
  Service?: string; ServiceSubset?: string; Namespace?: string; PrefixRewrite?: string; RequestTimeout?: string;
  NumRetries?: number; RetryOnConnectFailure?: boolean; RetryOnStatusCodes?: number[];
}
export interface ServiceRoute { Match?: RouteMatch; Destination?: RouteDestination }
export interface ServiceRouterEntry {
  Kind: 'service-router'; Name: string; Namespace?: string; Routes?: ServiceRoute[]; Meta?: Record<string, string>;
}

export interface IntentionHeaderMatch {
  Name?: string; Present?: boolean; Exact?: string; Prefix?: string; Suffix?: string; Regex?: string; Invert?: boolean;
}
export interface IntentionHttpMatch { PathExact?: string; PathPrefix?: string; PathRegex?: string; Header?: IntentionHeaderMatch[]; Methods?: string[] }
export interface IntentionPermission { Action?: string; HTTP?: IntentionHttpMatch }
export interface IntentionSource {
  Name?: string; Action?: string; Permissions?: IntentionPermission[]; Description?: string;
  /** Set by the server: the source's rank (higher first), and `consul`. */
  Precedence?: number; Type?: string;
}
export interface ServiceIntentionsEntry {
  Kind: 'service-intentions'; Name: string; Namespace?: string; Sources?: IntentionSource[]; Meta?: Record<string, string>;
}

export type ConfigEntry = ServiceDefaultsEntry | ProxyDefaultsEntry | ServiceResolverEntry | ServiceSplitterEntry | ServiceRouterEntry | ServiceIntentionsEntry;

/** A body the mesh system cannot decode (answered 400 "Request decoding failed: …"). */
export class DecodeError extends Error {}

export type Field = 'string' | 'bool' | 'int' | 'number' | 'duration' | 'any'
  | { obj: Schema } | { map: Field } | { list: Field };
export interface Schema { [canonical: string]: Field }

const MESH_GATEWAY: Field = { obj: { Mode: 'string' } };
const META: Field = { map: 'string' };
const COMMON: Schema = { Kind: 'string', Name: 'string', Namespace: 'string', Meta: META, CreateIndex: 'int', ModifyIndex: 'int' };

export const SCHEMAS: Record<EntryKind, Schema> = {
  [SERVICE_DEFAULTS]: { ...COMMON, Protocol: 'string', MeshGateway: MESH_GATEWAY, ExternalSNI: 'string' },
  [PROXY_DEFAULTS]: { ...COMMON, Config: { map: 'any' }, MeshGateway: MESH_GATEWAY },
  [SERVICE_RESOLVER]: {
    ...COMMON, ConnectTimeout: 'duration', DefaultSubset: 'string',
    Subsets: { map: { obj: { Filter: 'string', OnlyPassing: 'bool' } } },
    Redirect: { obj: { Service: 'string', ServiceSubset: 'string', Namespace: 'string', Datacenter: 'string' } },
    Failover: { map: { obj: { Service: 'string', ServiceSubset: 'string', Namespace: 'string', Datacenters: { list: 'string' } } } },
  },
  [SERVICE_SPLITTER]: {
    ...COMMON, Splits: { list: { obj: { Weight: 'number', Service: 'string', ServiceSubset: 'string', Namespace: 'string' } } },
  },
  [SERVICE_ROUTER]: {
    ...COMMON,
    Routes: {
      list: {
        obj: {
          Match: {
            obj: {
              HTTP: {
                obj: {
                  PathPrefix: 'string', PathExact: 'string',
                  Header: { list: { obj: { Name: 'string', Exact: 'string', Present: 'bool', Prefix: 'string', Suffix: 'string' } } },
                },
              },
            },
          },
          Destination: {
            obj: {
              Service: 'string', ServiceSubset: 'string', Namespace: 'string', PrefixRewrite: 'string',
              RequestTimeout: 'duration', NumRetries: 'int', RetryOnConnectFailure: 'bool', RetryOnStatusCodes: { list: 'int' },
            },
          },
        },
      },
    },
  },
  [SERVICE_INTENTIONS]: {
    ...COMMON,
    Sources: {
      list: {
        obj: {
          Name: 'string', Action: 'string', Description: 'string', Precedence: 'int', Type: 'string',
          Permissions: {
            list: {
              obj: {
                Action: 'string',
                HTTP: {
                  obj: {
                    PathExact: 'string', PathPrefix: 'string', PathRegex: 'string', Methods: { list: 'string' },
                    Header: {
                      list: {
                        obj: { Name: 'string', Present: 'bool', Exact: 'string', Prefix: 'string', Suffix: 'string', Regex: 'string', Invert: 'bool' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

/**
 * A source's precedence as the mesh ranks it (Community Edition: one namespace): an exact
 * destination and source 9, an exact destination and any source 8, any destination and an exact
 * source 6, any and any 5.
 */
export function intentionPrecedence(destination: string, source: string): number {
  return (destination === '*' ? 6 : 9) - (source === '*' ? 1 : 0);
}

const norm = (k: string) => k.replace(/_/g, '').toLowerCase();

/** Finds the value of `field` in a raw object whose keys may be in any case or snake_case. */
export function rawField(raw: Record<string, unknown>, field: string): unknown {
  for (const [k, v] of Object.entries(raw)) if (norm(k) === norm(field)) return v;
  return undefined;
}

/** Normalises a kind string (`ServiceDefaults`, `service_defaults` are not kinds: only the exact names). */
export function isEntryKind(k: unknown): k is EntryKind {
  return typeof k === 'string' && (ENTRY_KINDS as readonly string[]).includes(k);
}


/** A split weight as the mesh stores it: rounded to hundredths. */
export function normalizeWeight(w: number): number {
  return Math.round(w * 100) / 100;
}

/**
 * Decodes a raw config entry (parsed JSON) into its canonical form; throws `DecodeError`.
 * `CreateIndex`/`ModifyIndex` are accepted and dropped, so that a read entry can be written back.
 * As the mesh normalises on write: split weights are rounded to 0.01, a service's protocol is lower case.
 */
export function decodeEntry(raw: unknown): ConfigEntry {
  return decode(raw, false);
}

/**
 * Decodes an entry as a server answered it: keys the schema does not know are dropped, not refused
 * (a newer server's `Hash`, a uint64 beyond 2^53, `TransparentProxy`, `Expose`, `AccessLogs`, …).
 * A client reads them but never writes them back: its writes carry only the fields it manages.
 */
export function decodeReadEntry(raw: unknown): ConfigEntry {
  return decode(raw, true);
}

function decode(raw: unknown, ignoreUnknown: boolean): ConfigEntry {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new DecodeError('Payload is not a JSON object');
  const kind = rawField(raw as Record<string, unknown>, 'Kind');
  if (kind === undefined || kind === '') throw new DecodeError('Payload does not contain a kind/Kind key at the top level');
  if (!isEntryKind(kind)) throw new DecodeError(`invalid config entry kind: ${JSON.stringify(kind)}`);
  const out = decodeObject(raw, SCHEMAS[kind], '', ignoreUnknown) as Record<string, unknown>;
  delete out.CreateIndex;
  delete out.ModifyIndex;
  out.Kind = kind;
  out.Name ??= '';
  if (kind === SERVICE_DEFAULTS && typeof out.Protocol === 'string') out.Protocol = out.Protocol.toLowerCase();
  if (kind === SERVICE_INTENTIONS && Array.isArray(out.Sources)) {
    // As the mesh stores them: the highest precedence first (a stable sort: sources of equal rank keep their order).
    const name = String(out.Name ?? '');
    out.Sources = (out.Sources as IntentionSource[])
      .map((s, i) => ({ s, i, p: intentionPrecedence(name, s.Name ?? '') }))
      .sort((a, b) => b.p - a.p || a.i - b.i)
      .map((x) => x.s);
  }
  if (kind === SERVICE_SPLITTER && Array.isArray(out.Splits)) {
    for (const s of out.Splits as ServiceSplit[]) if (typeof s.Weight === 'number') s.Weight = normalizeWeight(s.Weight);
  }
  return out as unknown as ConfigEntry;
}

function decodeObject(raw: unknown, schema: Schema, path: string, lenient = false): Record<string, unknown> | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new DecodeError(`'${path}' expected a map, got '${typeName(raw)}'`);
  const byNorm = new Map(Object.keys(schema).map((k) => [norm(k), k]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const canonical = byNorm.get(norm(k));
    if (!canonical && lenient) continue;
    if (!canonical) throw new DecodeError(`'${path}' has invalid keys: ${k}`);
    const d = decodeField(v, schema[canonical], path ? `${path}.${canonical}` : canonical, lenient);
    if (d !== undefined) out[canonical] = d;
  }
  return out;
}

function decodeField(v: unknown, f: Field, path: string, lenient = false): unknown {
  if (v === null || v === undefined) return undefined;
  if (typeof f === 'object') {
    if ('obj' in f) {
      const o = decodeObject(v, f.obj, path, lenient);
      return o && Object.keys(o).length ? o : undefined;
    }
    if ('map' in f) {
      if (typeof v !== 'object' || Array.isArray(v)) throw new DecodeError(`'${path}' expected a map, got '${typeName(v)}'`);
      if (f.map === 'any') return Object.keys(v).length ? { ...(v as object) } : undefined;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const d = decodeField(x, f.map, `${path}[${k}]`, lenient);
        out[k] = d ?? (typeof f.map === 'object' && 'obj' in f.map ? {} : d);
      }
      return Object.keys(out).length ? out : undefined;
    }
    const list = Array.isArray(v) ? v : [v];
    const out = list.map((x, i) => decodeField(x, f.list, `${path}[${i}]`, lenient) ?? (typeof f.list === 'object' ? {} : undefined));
    return out.length ? out : undefined;
  }
  switch (f) {
    case 'any': return v;
    case 'string':
      if (typeof v === 'string') return v === '' ? undefined : v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      break;
    case 'bool':
      if (typeof v === 'boolean') return v || undefined;
      if (v === 'true' || v === '1' || v === 1) return true;
      if (v === 'false' || v === '0' || v === '' || v === 0) return undefined;
      break;
    case 'int': case 'number': {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
      if (typeof n === 'number' && Number.isFinite(n) && (f === 'number' || Number.isInteger(n))) {
        return n === 0 && f === 'int' ? undefined : n;
      }
      break;
    }
    case 'duration':
      try {
        const d = canonicalDuration(v);
        return d === '0s' ? undefined : d;
      } catch (e) {
        throw new DecodeError(`error decoding '${path}': ${(e as Error).message}`);
      }
  }
  throw new DecodeError(`'${path}' expected type '${f}', got unconvertible type '${typeName(v)}', value: '${JSON.stringify(v)}'`);
}

function typeName(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (v === null) return 'null';
  return { string: 'string', number: 'float64', boolean: 'bool', object: 'map[string]interface {}' }[typeof v as string] ?? typeof v;
}

/** The namespace of an entry (`default` when unset; proxy-defaults always live in `default`). */
export function entryNamespace(e: { Kind: string; Namespace?: string }): string {
  if (e.Kind === PROXY_DEFAULTS) return DEFAULT_NAMESPACE;
  return e.Namespace || DEFAULT_NAMESPACE;
}

/** `<kind>/<namespace>/<name>`: one entry per key. */
export function entryKey(e: { Kind: string; Name: string; Namespace?: string }): string {
  return `${e.Kind}/${entryNamespace(e)}/${e.Name}`;
}
