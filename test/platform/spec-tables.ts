import { specText, tableAfter } from '../support/spec-tables';

/** The spec's organization and entitlement-set tables, so tests walk the spec, not a hand-kept list. */
const TEXT = specText('platform-api');

function list(label: string): string[] {
  const m = new RegExp(`${label}[^:]*:\\s*([^\\n]+)`).exec(TEXT);
  if (!m) throw new Error(`no "${label}" list in the platform spec`);
  return m[1].replace(/\.$/, '').split(',').map((s) => s.trim());
}

/** Organization attributes: name, type text, notes. */
export const ORGANIZATION_TABLE = tableAfter(TEXT, '### Organization (').map(([name, type, notes]) => ({ name, type, notes }));
export const PERMISSION_KEYS_SPEC = list('`permissions` keys');
export const ENTITLEMENT_BOOLEANS_SPEC = list('Boolean attributes');
export const ENTITLEMENT_LIMITS_SPEC = list('Integer-or-null attributes');
/** Body of create and update: attribute (kebab), type, default text. */
export const ORGANIZATION_BODY = tableAfter(TEXT, 'Body of create and update')
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
