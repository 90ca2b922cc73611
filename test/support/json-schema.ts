// A small JSON Schema validator for the subset docs/*.schema.json use: type, const, enum,
// required, properties, additionalProperties, items, minimum, pattern, $ref to #/$defs, oneOf.
type Schema = Record<string, any>;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Returns the list of violations (empty when the value is valid). */
export function validate(value: unknown, schema: Schema, root: Schema = schema, at = '$'): string[] {
  if (schema.$ref) {
    const m = /^#\/\$defs\/(.+)$/.exec(schema.$ref);
    if (!m || !root.$defs?.[m[1]]) return [`${at}: unknown $ref ${schema.$ref}`];
    return validate(value, root.$defs[m[1]], root, at);
  }
  if (schema.oneOf) {
    const branches: Schema[] = schema.oneOf;
    const results = branches.map((b) => validate(value, b, root, at));
    const passing = results.filter((r) => r.length === 0).length;
    if (passing === 1) return [];
    if (passing > 1) return [`${at}: matches ${passing} branches of oneOf`];
    // Report the branch the value was most likely meant to be: the one whose required keys it has, then the closest.
    const missing = (b: Schema): number => {
      const target = b.$ref ? root.$defs?.[String(b.$ref).replace('#/$defs/', '')] ?? b : b;
      const obj = typeOf(value) === 'object' ? (value as Record<string, unknown>) : {};
      return (target.required ?? []).filter((k: string) => !(k in obj)).length;
    };
    const order = results.map((r, i) => ({ r, m: missing(branches[i]) })).sort((a, b) => a.m - b.m || a.r.length - b.r.length);
    return order[0].r;
  }
  const errors: string[] = [];
  const t = typeOf(value);
  if (schema.type) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((x) => x === t || (x === 'number' && t === 'integer'))) return [`${at}: ${t} is not ${types.join(' or ')}`];
  }
  if ('const' in schema && value !== schema.const) errors.push(`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  if (typeof schema.minimum === 'number' && typeof value === 'number' && value < schema.minimum) errors.push(`${at}: ${value} < ${schema.minimum}`);
  if (schema.pattern && typeof value === 'string' && !new RegExp(schema.pattern).test(value)) errors.push(`${at}: "${value}" does not match ${schema.pattern}`);
  if (t === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k of schema.required ?? []) if (!(k in obj)) errors.push(`${at}: ${k} is required`);
    for (const [k, v] of Object.entries(obj)) {
      if (schema.properties?.[k]) errors.push(...validate(v, schema.properties[k], root, `${at}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${at}: ${k} is not allowed`);
      else if (typeof schema.additionalProperties === 'object') errors.push(...validate(v, schema.additionalProperties, root, `${at}.${k}`));
    }
  }
  if (t === 'array' && schema.items) (value as unknown[]).forEach((v, i) => errors.push(...validate(v, schema.items, root, `${at}[${i}]`)));
  return errors;
}
