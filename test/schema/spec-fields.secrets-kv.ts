import { defaultOf, SpecField, specTableAfter } from '../support/spec-tables';

/**
 * The secrets spec lists a body's fields in one cell of its endpoint tables, as
 * `max_versions (int: 0), cas_required (bool: false), body \`options.cas\` (int, optional)`:
 * each field's name (its top-level key: `options` for `options.cas`) and its default, when the
 * cell states one (`(type: default; note)`). A Go `nil` map reads as converge's empty map.
 */
export function parameterCell(cell: string): SpecField[] {
  const items: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of cell) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) { items.push(cur); cur = ''; } else cur += c;
  }
  items.push(cur);
  return items.map((item) => item.trim()).filter((item) => item.includes('(')).map((item) => {
    const name = item.slice(0, item.indexOf('(')).trim().replace(/^(body|query)\s+/, '').replace(/`/g, '').split('.')[0];
    const inside = item.slice(item.indexOf('(') + 1, item.lastIndexOf(')')).split(';')[0];
    const colon = inside.indexOf(':');
    let text = colon < 0 ? undefined : inside.slice(colon + 1).trim();
    if (text === 'empty') text = '""';
    if (text === 'nil' && /^map/.test(inside)) text = '{}';
    if (text !== undefined && /^\d+\s+[a-z]+$/.test(text)) text = text.split(/\s+/)[0]; // `20 bytes`
    return { name, default: defaultOf(text) };
  });
}

/** The parameter cells of the operations of an endpoint table (its third column), by operation. */
function operations(section: string): Map<string, string> {
  return new Map(specTableAfter('secrets-api', section, '## Endpoints').map((row) => [row[0], row[2]]));
}

function parameters(section: string, ...ops: string[]): SpecField[] {
  const table = operations(section);
  return ops.flatMap((op) => {
    const cell = table.get(op);
    if (cell === undefined) throw new Error(`no operation "${op}" under ${section}`);
    return parameterCell(cell);
  });
}

/** Each secrets kind of the kv area's request fields, read from the spec's parameter tables. */
export const SECRETS_KV_SPEC_FIELDS: Record<string, () => SpecField[]> = {
  // A key's version body and its metadata body: converge writes both.
  'secrets.KvSecret': () => parameters('### Key-value engine', 'Create or update', 'Create or update metadata'),
  'secrets.KvEngineConfig': () => parameters('### Key-value engine', 'Configure'),
  'secrets.TotpKey': () => parameters('### TOTP engine', 'Create key'),
  'secrets.PushMfaMethod': () => parameters('### Push-MFA method', 'Configure'),
};
