import * as fs from 'fs';
import * as path from 'path';

/** Reads the verbatim spec excerpt in fixtures/ and returns its tables, so tests walk the spec, not a hand-kept list. */
const TEXT = fs.readFileSync(path.join(__dirname, 'fixtures', 'spec-organization-tables.md'), 'utf8');

function tableRows(afterHeading: string): string[][] {
  const start = TEXT.indexOf(afterHeading);
  if (start < 0) throw new Error(`no "${afterHeading}" in the spec excerpt`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of TEXT.slice(start).split('\n')) {
    if (line.startsWith('|')) {
      inTable = true;
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      if (!cells[0].startsWith('---')) rows.push(cells);
    } else if (inTable) {
      break;
    }
  }
  return rows.slice(1); // drop the header row
}

function list(label: string): string[] {
  const m = new RegExp(`${label}[^:]*:\\s*([^\\n]+)`).exec(TEXT);
  if (!m) throw new Error(`no "${label}" list in the spec excerpt`);
  return m[1].replace(/\.$/, '').split(',').map((s) => s.trim());
}

/** Organization attributes: name, type text, notes. */
export const ORGANIZATION_TABLE = tableRows('### Organization').map(([name, type, notes]) => ({ name, type, notes }));
export const PERMISSION_KEYS_SPEC = list('`permissions` keys');
export const ENTITLEMENT_BOOLEANS_SPEC = list('Boolean attributes');
export const ENTITLEMENT_LIMITS_SPEC = list('Integer-or-null attributes');
/** Body of create and update: attribute (kebab), type, default text. */
export const ORGANIZATION_BODY = tableRows('Body of create and update')
  .filter(([k]) => k.startsWith('data.attributes.'))
  .map(([k, type, def]) => ({ name: k.slice('data.attributes.'.length), type, default: def }));

/** Whether a value matches a type text of the spec (`integer or null`, `timestamp`, `object of booleans`, …). */
export function matchesType(value: unknown, type: string): boolean {
  const t = type.toLowerCase();
  if (value === null) return t.includes('or null');
  if (t.startsWith('boolean')) return typeof value === 'boolean';
  if (t.startsWith('integer')) return Number.isInteger(value);
  if (t.startsWith('timestamp')) return typeof value === 'string' && !Number.isNaN(Date.parse(value));
  if (t.startsWith('object of booleans')) return typeof value === 'object' && Object.values(value as object).every((v) => typeof v === 'boolean');
  if (t.startsWith('string')) return typeof value === 'string';
  throw new Error(`unknown spec type "${type}"`);
}

/** A default text of the body table as a value (`20160`, `false`, `password`); undefined for none. */
export function defaultValue(text: string): unknown {
  if (text === '' || text.startsWith('(')) return undefined;
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^\d+$/.test(text)) return Number(text);
  return text;
}
