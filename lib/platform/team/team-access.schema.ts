import { FieldsSchema, KindSchema } from '../../core/schema';

/** The access levels of a team to a workspace: four fixed ones, and `custom` with its own permissions. */
export const TEAM_ACCESS_LEVELS = ['read', 'plan', 'write', 'admin', 'custom'] as const;

/** The values each permission of a custom access takes (go-tfe's `RunsPermissionType`, …). */
export const RUNS_PERMISSIONS = ['read', 'plan', 'apply'] as const;
export const VARIABLES_PERMISSIONS = ['none', 'read', 'write'] as const;
export const STATE_VERSIONS_PERMISSIONS = ['none', 'read-outputs', 'read', 'write'] as const;
export const SENTINEL_MOCKS_PERMISSIONS = ['none', 'read'] as const;

/**
 * The permissions of a custom access, flat attributes of the body beside `access`. Their defaults are the
 * Terraform provider's (`tfe_team_access`'s `permissions` block): runs read, nothing else.
 */
export const TEAM_ACCESS_PERMISSION_FIELDS: FieldsSchema = {
  runs: { type: 'string', oneOf: RUNS_PERMISSIONS, default: 'read' },
  variables: { type: 'string', oneOf: VARIABLES_PERMISSIONS, default: 'none' },
  stateVersions: { type: 'string', oneOf: STATE_VERSIONS_PERMISSIONS, default: 'none' },
  sentinelMocks: { type: 'string', oneOf: SENTINEL_MOCKS_PERMISSIONS, default: 'none' },
  workspaceLocking: { type: 'boolean', default: false },
  runTasks: { type: 'boolean', default: false },
};

/** The permissions as spec fields: held (at their defaults when not given) only by a `custom` access. */
const CUSTOM_ONLY: FieldsSchema = Object.fromEntries(Object.entries(TEAM_ACCESS_PERMISSION_FIELDS)
  .map(([k, f]) => [k, { ...f, default: (props: Record<string, any>) => (props.access === 'custom' ? f.default : undefined) }]));

/**
 * `platform.TeamAccess`: the real platform's `team-workspaces` body (go-tfe's `TeamAccessAddOptions`):
 * the team and the workspace (a change of either replaces the access), the access level and, for a
 * `custom` one, its permissions, flat attributes of the body (updated in place; the construct takes them as
 * one `permissions` struct). A fixed level's permissions are the server's (read-only, implied by the level):
 * the spec holds them only for `custom`.
 */
export const TEAM_ACCESS: KindSchema = {
  kind: 'platform.TeamAccess',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    teamId: { type: 'string', required: true, replace: true, wire: 'team', pattern: /^team-/, patternRule: 'is not a team id (team-…)' },
    workspaceId: { type: 'string', required: true, replace: true, wire: 'workspace', pattern: /^ws-/, patternRule: 'is not a workspace id (ws-…)' },
    access: { type: 'string', oneOf: TEAM_ACCESS_LEVELS },
    ...CUSTOM_ONLY,
  },
  outputs: {
    id: { type: 'string' },
  },
};
