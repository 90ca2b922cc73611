import { FieldSchema, FieldsSchema, KindSchema, wireName } from './kind-schema';
import { mapValues } from './render-spec';
import { normalDuration } from '../duration';
import { stringSet } from '../string-set';

type Casing = Pick<KindSchema, 'wireCase'>;

/**
 * An API body of a resolved spec: each field under its wire name, nested structs too. Fields marked
 * `local` are left out; a field absent from the spec stays absent (the API keeps or defaults it).
 */
export function toWire(schema: Casing, fields: FieldsSchema, spec: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    if (field.local || !(key in spec) || spec[key] === undefined) continue;
    out[wireName(schema, key, field)] = valueToWire(schema, field, spec[key]);
  }
  return out;
}

function valueToWire(schema: Casing, field: FieldSchema, v: unknown): unknown {
  if (v === null || v === undefined) return v;
  if (field.type === 'object') return toWire(schema, field.fields ?? {}, v as Record<string, unknown>);
  if (field.type === 'object-list') return (v as Record<string, unknown>[]).map((x) => toWire(schema, field.fields ?? {}, x));
  if (field.type === 'object-map') return mapValues(v as Record<string, unknown>, (x) => toWire(schema, field.fields ?? {}, x));
  return v;
}

/**
 * The observed fields of an API body, in the spec's shape: every field the API returns (write-only
 * and local ones are left out, the engine compares those with what was sent), read by its wire name.
 * A field the body leaves out reads as its default when it has a constant one (the API omits empty
 * values), else as absent. Durations and sets come back in their canonical form.
 */
export function fromWire(schema: Casing, fields: FieldsSchema, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    if (field.writeOnly || field.local) continue;
    const raw = body[wireName(schema, key, field)];
    const v = raw === undefined ? (typeof field.default === 'function' ? undefined : field.default) : valueFromWire(schema, field, raw);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function valueFromWire(schema: Casing, field: FieldSchema, v: unknown): unknown {
  if (v === null) return null;
  switch (field.type) {
    case 'duration': return normalDuration(v);
    case 'string-set': return Array.isArray(v) ? stringSet(v) : v;
    case 'object': return typeof v === 'object' ? fromWire(schema, field.fields ?? {}, v as Record<string, unknown>) : v;
    case 'object-list': return Array.isArray(v) ? v.map((x) => fromWire(schema, field.fields ?? {}, x as Record<string, unknown>)) : v;
    case 'object-map': return typeof v === 'object' && !Array.isArray(v) ? mapValues(v as Record<string, unknown>, (x) => fromWire(schema, field.fields ?? {}, x ?? {})) : v;
    default: return v;
  }
}
