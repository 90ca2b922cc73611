/**
 * Readers of the specs' request-body tables that several families' `specFields`
 * (test/<domain>/<family>/<family>.samples.ts) use.
 */
import { normalDuration } from '../../lib/core/duration';
import { SpecField, defaultOf, keyPathFields, specTableAfter } from '../support/spec-tables';

/** The spec's "empty string" default is the empty string. */
export const emptyString = (fields: SpecField[]): SpecField[] => fields.map((f) => (f.default === 'empty string' ? { ...f, default: '' } : f));

/** A body table's attributes and relationships (`data.relationships.<name>…`, once each, with the default of its first row). */
export function bodyFields(rows: string[][]): SpecField[] {
  const relationships = new Map<string, SpecField>();
  for (const [key, , def] of rows) {
    const m = /^data\.relationships\.([a-z_-]+)\./.exec(key);
    if (m && !relationships.has(m[1])) relationships.set(m[1], { name: m[1], default: defaultOf(def) });
  }
  return emptyString([...keyPathFields(rows, 'data.attributes.'), ...relationships.values()]);
}

/**
 * The parameters of a row of the secrets spec's endpoint tables or of a prose line, written as
 * `name (type: default; note), …`: each name with the default its type part states (`empty` is the
 * empty string or list, a duration in converge's canonical form).
 */
export function paramList(text: string, durations: readonly string[] = []): SpecField[] {
  const out: SpecField[] = [];
  const re = /`?([a-z_]+)`?\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const [type, rest] = m[2].split(/[:]/, 2).map((s) => s.trim());
    out.push({ name: m[1], default: defaultIn(type, rest?.split(/[;,]/)[0], durations.includes(m[1])) });
  }
  return out;
}

export function defaultIn(type: string, text: string | undefined, duration: boolean): unknown {
  if (text === undefined) return undefined;
  if (text === 'empty') return /list/.test(type) ? [] : '';
  const v = defaultOf(text);
  return duration && v !== undefined ? normalDuration(v) : v;
}

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
export function operations(section: string): Map<string, string> {
  return new Map(specTableAfter('secrets-api', section, '## Endpoints').map((row) => [row[0], row[2]]));
}

export function parameters(section: string, ...ops: string[]): SpecField[] {
  const table = operations(section);
  return ops.flatMap((op) => {
    const cell = table.get(op);
    if (cell === undefined) throw new Error(`no operation "${op}" under ${section}`);
    return parameterCell(cell);
  });
}

/**
 * The parameters of a secrets-spec operation cell: `address (string: …), token (string: empty; …)`,
 * split at the commas outside parentheses, each field's default the text after the type's colon
 * (`empty` is the empty string for a string, no default for other types).
 */
export function parameterFields(cell: string): SpecField[] {
  const items: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of cell) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) { items.push(cur); cur = ''; } else cur += ch;
  }
  items.push(cur);
  return items.map((s) => s.trim()).filter(Boolean).map(parameterField);
}

/** One parameter: `name (type[, required][: default][; notes])`. */
export function parameterField(text: string): SpecField {
  const m = /^`?([a-z_]+)`?\s*(?:\(([^;)]*)[^)]*\))?/.exec(text.trim());
  if (!m) throw new Error(`not a parameter: "${text}"`);
  const head = m[2] ?? '';
  const colon = head.indexOf(':');
  // Required, or no `type: default`: no default. A default in words (`the hosted platform's public address`) is no value either.
  if (/\brequired\b/.test(head) || colon < 0) return { name: m[1] };
  const [type, given] = [head.slice(0, colon).trim(), head.slice(colon + 1).trim()];
  if (given === 'empty') return { name: m[1], default: type === 'string' ? '' : undefined };
  return { name: m[1], default: /\s/.test(given) ? undefined : defaultOf(given) };
}

/** The parameters cell of an operation row of an engine's endpoint table. */
export function operation(engine: string, op: string): SpecField[] {
  const row = specTableAfter('secrets-api', '| Operation |', engine).find((cells) => cells[0] === op);
  if (!row) throw new Error(`no "${op}" under "${engine}"`);
  return parameterFields(row[2]);
}
