import { defaultOf, keyPathFields, SpecField, specText, specTableAfter } from '../support/spec-tables';

/** The spec's "empty string" default is the empty string. */
const emptyString = (fields: SpecField[]): SpecField[] => fields.map((f) => (f.default === 'empty string' ? { ...f, default: '' } : f));

/** A body table's attributes and relationships (`data.relationships.<name>…`, once each, with the default of its first row). */
function bodyFields(rows: string[][]): SpecField[] {
  const relationships = new Map<string, SpecField>();
  for (const [key, , def] of rows) {
    const m = /^data\.relationships\.([a-z_-]+)\./.exec(key);
    if (m && !relationships.has(m[1])) relationships.set(m[1], { name: m[1], default: defaultOf(def) });
  }
  return emptyString([...keyPathFields(rows, 'data.attributes.'), ...relationships.values()]);
}

/** A body given in prose (`data.attributes.name (string, required), data.attributes.organization-scoped (boolean, default true), …`). */
function proseBody(marker: string): SpecField[] {
  const text = specText('platform-api');
  const start = text.indexOf(marker);
  if (start < 0) throw new Error(`no "${marker}" in platform-api`);
  const paragraph = text.slice(start, text.indexOf('\n', start));
  const fields: SpecField[] = [];
  for (const m of paragraph.matchAll(/data\.(attributes|relationships)\.([a-z_-]+)[^\s(]*(?: \(([^)]*)\))?/g)) {
    const def = /default ([^,)]+)/.exec(m[3] ?? '');
    fields.push({ name: m[2], default: defaultOf(def?.[1]) });
  }
  return fields;
}

/** Each platform kind's request fields, read from the spec's body tables. */
export const PLATFORM_SPEC_FIELDS: Record<string, () => SpecField[]> = {
  'platform.Organization': () => keyPathFields(specTableAfter('platform-api', 'Body of create and update', '### Organizations'), 'data.attributes.'),
  'platform.OAuthClient': () => bodyFields(specTableAfter('platform-api', 'Body (properties without default are required)', '**Create** `POST /organizations/<org_name>/oauth-clients`')),
  'platform.AgentPool': () => proseBody('**Create pool**'),
  'platform.NoCodeModule': () => bodyFields(specTableAfter('platform-api', '| Key path', '**Enable** `POST /organizations/<org_name>/no-code-modules`')),
  'platform.NoCodeWorkspace': () => bodyFields(specTableAfter('platform-api', '| Key path', '**Create workspace**')),
  // The spec shows no body ("not shown"); REAL-SYSTEMS.md gives the real platform's: type
  // `data-retention-policy-delete-olders` with attribute `delete-older-than-n-days`, or `…-dont-deletes`.
  'platform.DataRetentionPolicy': () => [{ name: 'delete-older-than-n-days' }],
  // Not in the spec's excerpt: the real platform's bodies (go-tfe's create options), with the spec's
  // `engine-version` and `engine` category for the Terraform version and input variables.
  'platform.Project': () => [{ name: 'name' }, { name: 'description', default: '' }],
  'platform.Workspace': () => [
    { name: 'name' }, { name: 'description', default: '' }, { name: 'project', default: null }, { name: 'execution-mode', default: 'remote' },
    { name: 'agent-pool-id', default: null }, { name: 'engine-version', default: null }, { name: 'working-directory', default: '' },
    { name: 'auto-apply', default: false }, { name: 'tag-names', default: [] },
  ],
  'platform.Variable': () => [
    // `value`: a plain variable's (default '') or a sensitive one's (`sensitiveValue`, write-only): one attribute of the body.
    { name: 'key' }, { name: 'value' }, { name: 'description', default: '' }, { name: 'category', default: 'engine' },
    { name: 'hcl', default: false }, { name: 'sensitive' },
  ],
  'platform.Team': () => [{ name: 'name' }, { name: 'visibility', default: 'secret' }, { name: 'organization-access', default: {} }],
  'platform.TeamAccess': () => [
    { name: 'access' }, { name: 'team' }, { name: 'workspace' },
    // A custom access's permissions (go-tfe's `TeamAccess`): read-only, implied by the level, for a fixed one.
    { name: 'runs' }, { name: 'variables' }, { name: 'state-versions' }, { name: 'sentinel-mocks' }, { name: 'workspace-locking' }, { name: 'run-tasks' },
  ],
  'platform.VariableSet': () => [
    { name: 'name' }, { name: 'description', default: '' }, { name: 'global', default: false }, { name: 'priority', default: false },
    { name: 'workspaces', default: [] }, { name: 'projects', default: [] },
  ],
};
