import { FieldSchema, FieldsSchema } from './kind-schema';
import { normalDuration } from '../duration';
import { stringSet } from '../string-set';

/**
 * The spec of props: every field in declaration order, the default of a field not given, durations
 * in their canonical form, sets sorted, nested structs rendered by their own fields. Props the
 * schema does not declare are left out (the construct's props interface may hold lifecycle props).
 */
export function renderSpec(fields: FieldsSchema, props: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    const v = renderField(field, props[key], props);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function renderField(field: FieldSchema, given: unknown, props: Record<string, any>): unknown {
  const v = given ?? (typeof field.default === 'function' ? (field.default as (p: Record<string, any>) => unknown)(props) : field.default);
  if (v === undefined || v === null) return v;
  switch (field.type) {
    case 'duration': return normalDuration(v);
    case 'string-set': return Array.isArray(v) ? stringSet(v) : v;
    case 'object': return typeof v === 'object' && !Array.isArray(v) ? renderSpec(field.fields ?? {}, v as Record<string, any>) : v;
    case 'object-list': return Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? renderSpec(field.fields ?? {}, x) : x)) : v;
    case 'object-map': return isMap(v) ? mapValues(v, (x) => (isMap(x) ? renderSpec(field.fields ?? {}, x) : x)) : v;
    default: return v;
  }
}

const isMap = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A map with each value mapped, its keys (and their order) kept. */
export function mapValues(v: Record<string, unknown>, f: (x: any) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(x)]));
}
