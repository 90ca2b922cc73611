import { block, enumOf } from '../../core/migrate/mapping-util';
import { ConstructRef, EnumMember, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { TEAM_ACCESS, TEAM_ACCESS_LEVELS, TEAM_ACCESS_PERMISSION_FIELDS } from '../team/team-access.schema';

/** The enum of each string permission of a custom access (the booleans are plain). */
const PERMISSION_ENUMS: Record<string, string> = {
  runs: 'platform.TeamAccessRunsPermission', variables: 'platform.TeamAccessVariablesPermission',
  stateVersions: 'platform.TeamAccessStateVersionsPermission', sentinelMocks: 'platform.TeamAccessSentinelMocksPermission',
};

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A custom access's `permissions` block as the construct's prop: only what differs from each default. */
function customPermissions(values: Record<string, unknown>): Record<string, boolean | EnumMember> | string {
  const given = block(values, 'permissions');
  if (!given) return 'access "custom" without its permissions block';
  const out: Record<string, boolean | EnumMember> = {};
  for (const [name, field] of Object.entries(TEAM_ACCESS_PERMISSION_FIELDS)) {
    const v = given[snake(name)];
    if (v === undefined || v === null || v === field.default) continue;
    if (field.oneOf && !field.oneOf.includes(String(v))) return `permissions.${snake(name)} "${String(v)}" is not one the platform takes`;
    out[name] = PERMISSION_ENUMS[name] ? enumOf(PERMISSION_ENUMS[name], String(v)) : v === true;
  }
  return out;
}

/**
 * `tfe_team_access` -> `platform.TeamAccess` of a team and a workspace the state holds (imported by its id, tws-…):
 * a fixed level as `access`, a custom one as its `permissions` (computed, so not written, for a fixed level).
 */
export const TFE_TEAM_ACCESS: TerraformMapping = {
  type: 'tfe_team_access',
  order: 3,
  map(r, ctx) {
    const v = r.values;
    if (!(TEAM_ACCESS_LEVELS as readonly unknown[]).includes(v.access)) return { skip: `access "${v.access}" is not one the platform takes` };
    const permissions = v.access === 'custom' ? customPermissions(v) : undefined;
    if (typeof permissions === 'string') return { skip: permissions };
    const team = ctx.find('tfe_team', { id: v.team_id });
    if (!team) return { skip: `its team ${v.team_id} is not in the state, or not taken` };
    const ws = ctx.find('tfe_workspace', { id: v.workspace_id });
    if (!ws) return { skip: `its workspace ${v.workspace_id} is not in the state, or not taken` };
    return {
      kind: TEAM_ACCESS.kind,
      className: 'platform.TeamAccess',
      importId: String(v.id),
      props: {
        team: new ConstructRef(team.address), workspace: new ConstructRef(ws.address),
        ...(permissions ? { permissions } : { access: enumOf('platform.TeamAccessLevel', String(v.access)) }),
      },
    };
  },
};
