import { KindSchema } from '../../core/schema';

/** The fixed access levels of a team to a workspace (`custom` permissions are not managed). */
export const TEAM_ACCESS_LEVELS = ['read', 'plan', 'write', 'admin'] as const;

/**
 * `platform.TeamAccess`: the real platform's `team-workspaces` body (go-tfe's `TeamAccessAddOptions`):
 * the team and the workspace (a change of either replaces the access), the access level (updated in place).
 */
export const TEAM_ACCESS: KindSchema = {
  kind: 'platform.TeamAccess',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    teamId: { type: 'string', required: true, replace: true, wire: 'team', pattern: /^team-/, patternRule: 'is not a team id (team-…)' },
    workspaceId: { type: 'string', required: true, replace: true, wire: 'workspace', pattern: /^ws-/, patternRule: 'is not a workspace id (ws-…)' },
    access: { type: 'string', required: true, oneOf: TEAM_ACCESS_LEVELS },
  },
  outputs: {
    id: { type: 'string' },
  },
};
