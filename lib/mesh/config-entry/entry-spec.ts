/**
 * The mapping between a configuration entry (the mesh system's PascalCase JSON) and a construct's
 * spec, driven by the kind's schema (`toWire`/`fromWire`). Both directions go through the mesh
 * system's own decoding, so that equivalent forms compare equal: durations in Go's form (`60s` and
 * `1m` are both `1m0s`), values the mesh omits when empty (Go's `omitempty`) read as their zero
 * value (the schema's defaults), an empty object as `null`, server-filled fields (`CreateIndex`,
 * `ModifyIndex`) left out, the namespace always named.
 */
import { fromWire, toWire } from '../../core/schema';
import { ConfigEntry, decodeEntry, entryNamespace, SERVICE_DEFAULTS } from '../compiler/entries';
import { ConfigEntrySchema } from './config-entry.schema';

/** A decoded entry as a spec: every field present. */
export function entryToSpec(schema: ConfigEntrySchema, entry: ConfigEntry): Record<string, unknown> {
  const spec = fromWire(schema, schema.fields, entry as unknown as Record<string, unknown>);
  spec.namespace = entryNamespace(entry);
  // The mesh matches protocols case-insensitively; an entry written outside converge may say `HTTP`.
  if (entry.Kind === SERVICE_DEFAULTS) spec.protocol = String(spec.protocol || 'tcp').toLowerCase();
  return spec;
}

/** A spec (or props of the same shape) as the entry the API is sent; throws `DecodeError`. */
export function specToEntry(schema: ConfigEntrySchema, spec: Record<string, unknown>): ConfigEntry {
  return decodeEntry({ ...toWire(schema, schema.fields, spec), Kind: schema.entryKind });
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
