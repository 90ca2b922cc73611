/**
 * The mapping between a configuration entry (the mesh system's PascalCase JSON) and a
 * construct's spec (camelCase prop names). Both directions go through the mesh system's own
 * decoding, so that equivalent forms compare equal: durations in Go's form (`60s` and `1m`
 * are both `1m0s`), omitted values filled with their zero value, an absent object as `null`,
 * server-filled fields (`CreateIndex`, `ModifyIndex`) left out, the namespace always named.
 */
import { ConfigEntry, decodeEntry, entryNamespace, EntryKind, Field, SCHEMAS, SERVICE_DEFAULTS } from './compiler/entries';

const CAMEL: Record<string, string> = { HTTP: 'http', ExternalSNI: 'externalSni' };
const SKIP = new Set(['Kind', 'CreateIndex', 'ModifyIndex']);

/** `ConnectTimeout` -> `connectTimeout`, `HTTP` -> `http`. */
export function camel(key: string): string {
  return CAMEL[key] ?? key.charAt(0).toLowerCase() + key.slice(1);
}

function toSpecValue(v: unknown, f: Field): unknown {
  if (typeof f === 'object') {
    if ('obj' in f) {
      if (v === undefined || v === null) return null;
      const out: Record<string, unknown> = {};
      for (const [k, sub] of Object.entries(f.obj)) {
        if (!SKIP.has(k)) out[camel(k)] = toSpecValue((v as Record<string, unknown>)[k], sub);
      }
      return out;
    }
    if ('map' in f) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries((v ?? {}) as Record<string, unknown>)) out[k] = f.map === 'any' ? x : toSpecValue(x, f.map);
      return out;
    }
    return ((v ?? []) as unknown[]).map((x) => toSpecValue(x, f.list));
  }
  if (v !== undefined && v !== null) return v;
  return { string: '', bool: false, int: 0, number: 0, duration: '0s', any: null }[f];
}

/** A decoded entry as a spec: every field present, in camelCase. */
export function entryToSpec(entry: ConfigEntry): Record<string, unknown> {
  const spec = toSpecValue(entry, { obj: SCHEMAS[entry.Kind] }) as Record<string, unknown>;
  spec.namespace = entryNamespace(entry);
  if (entry.Kind === SERVICE_DEFAULTS) spec.protocol = String(spec.protocol || 'tcp').toLowerCase();
  return spec;
}

/** A spec (or props of the same shape) as the entry the API is sent; throws `DecodeError`. */
export function specToEntry(kind: EntryKind, spec: Record<string, unknown>): ConfigEntry {
  return decodeEntry({ ...spec, Kind: kind });
}

/** The canonical spec of props or of an entry read from the API: decode, then fill. */
export function canonicalSpec(kind: EntryKind, raw: Record<string, unknown>): Record<string, unknown> {
  return entryToSpec(specToEntry(kind, raw));
}

/** Identity of an entry: `<kind>/<name>`, or `<namespace>/<kind>/<name>` outside the default namespace. */
export function entryId(kind: string, name: string, namespace?: string): string {
  return !namespace || namespace === 'default' ? `${kind}/${name}` : `${namespace}/${kind}/${name}`;
}

/** Parses an identity; throws for a malformed one. */
export function parseEntryId(id: string): { kind: string; name: string; namespace: string } {
  const parts = id.split('/');
  if (parts.length === 2 && parts.every(Boolean)) return { kind: parts[0], name: parts[1], namespace: 'default' };
  if (parts.length === 3 && parts.every(Boolean)) return { namespace: parts[0], kind: parts[1], name: parts[2] };
  throw new Error(`"${id}" is not a configuration entry id: use <kind>/<name> or <namespace>/<kind>/<name>`);
}
