import { section as specSection, specText, tableAfter } from '../support/spec-tables';

/**
 * The resource sections of the platform spec, parsed into attribute and relationship names, so that
 * the shape tests walk the spec and no hand-kept list.
 */
const TEXT = specText('platform-api');

/** The text of a `### heading` section (up to the next heading). */
const section = (heading: string): string => specSection(TEXT, `### ${heading}`);

/** Splits on commas outside parentheses. */
function topLevelItems(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(' || ch === '{') depth++;
    if (ch === ')' || ch === '}') depth--;
    if (ch === ',' && depth === 0) { out.push(cur.trim()); cur = ''; } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Names listed after `label` (up to the sentence end at top level), backticks stripped, `and` removed. */
function listedNames(text: string, label: string): string[] {
  const start = text.indexOf(label);
  if (start < 0) throw new Error(`no "${label}"`);
  let depth = 0;
  let end = start + label.length;
  for (; end < text.length; end++) {
    const ch = text[end];
    if (ch === '(' || ch === '{') depth++;
    if (ch === ')' || ch === '}') depth--;
    if (depth === 0 && ch === '.' && /\s|$/.test(text[end + 1] ?? '')) break;
  }
  return topLevelItems(text.slice(start + label.length, end))
    .flatMap((item) => item.replace(/\(.*$/s, '').split(/ and /))
    .map((item) => item.trim().replace(/^(and )?(also )?/, ''))
    .map((item) => /^`?([a-z][a-z0-9_-]*)`?/.exec(item)?.[1])
    .filter((x): x is string => x !== undefined);
}

export interface AttributeRow { name: string; type: string; notes: string }

const attributeTable = (heading: string): AttributeRow[] =>
  tableAfter(section(heading), '| Attribute').map(([name, type, notes]) => ({ name, type, notes }));

export const OAUTH_CLIENT = {
  attributes: attributeTable('OAuth client'),
  relationships: listedNames(section('OAuth client'), 'Relationships: '),
  requestOnly: listedNames(section('OAuth client'), 'The request-only attributes '),
  includes: listedNames(section('OAuth client'), 'Related resources for `include`: '),
};
export const AGENT_POOL = {
  attributes: attributeTable('Agent pool'),
  relationships: listedNames(section('Agent pool'), 'Relationships: '),
  includes: listedNames(section('Agent pool'), 'Related resources for `include`: '),
};
export const AGENT = {
  attributes: attributeTable('Agent ('),
  statuses: listedNames(section('Agent ('), '| status | string | values seen: '),
};
export const MODULE_PRODUCER = { attributes: listedNames(section('Module producer'), 'with attributes ') };
export const NO_CODE_MODULE = {
  attributes: listedNames(section('No-code module'), 'Attributes: '),
  relationships: listedNames(section('No-code module'), 'Relationships: '),
};
export const VARIABLE_OPTIONS = {
  attributes: listedNames(section('Variable options'), 'Attributes: '),
  includedRelationship: listedNames(section('Variable options'), 'When included, relationship '),
};
const wsText = section('Workspace created by a no-code module');
export const NO_CODE_WORKSPACE = {
  attributes: listedNames(wsText, 'Attributes: '),
  permissions: /permissions \(booleans: ([^)]*)\)/.exec(wsText)![1].split(',').map((x) => x.trim()),
  relationships: listedNames(wsText, 'Relationships: '),
};
export const WORKSPACE_UPGRADE = {
  attributes: listedNames(section('Workspace upgrade'), 'Attributes: '),
  relationships: listedNames(section('Workspace upgrade'), 'Relationship '),
};
export const UPGRADE_STATUSES = listedNames(TEXT, 'Workspace upgrade `status` values: ');

/** Rows of the states and transitions table. */
export const STATE_TABLE = tableAfter(TEXT, '| State |').map(([state, movedBy, condition, next, also]) => ({ state, movedBy, condition, next, also }));

/** Body tables: attribute key paths with type and default text. */
export const OAUTH_CLIENT_CREATE_BODY = tableAfter(TEXT, 'Body (properties without default are required)')
  .map(([key, type, def]) => ({ key, type, default: def }));
export const NO_CODE_ENABLE_BODY = tableAfter(TEXT, '**Enable**').map(([key, type, def]) => ({ key, type, default: def }));
export const NO_CODE_WORKSPACE_BODY = tableAfter(TEXT, '**Create workspace**').map(([key, type, def]) => ({ key, type, default: def }));

/** The provider identifiers of the create body's `service-provider` row. */
export const SERVICE_PROVIDERS_SPEC = [...(OAUTH_CLIENT_CREATE_BODY.find((r) => r.key === 'data.attributes.service-provider')!
  ? TEXT.match(/one of (`provider_[a-z_]+`(?:, )?)+/)![0].matchAll(/`([a-z_]+)`/g) : [])].map((m) => m[1]);
