import { enumOf } from '../../core/migrate/mapping-util';
import { ConstructRef, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { TEAM_ACCESS, TEAM_ACCESS_LEVELS } from '../team/team-access.schema';

/** `tfe_team_access` -> `platform.TeamAccess` of a team and a workspace the state holds (imported by its id, tws-…). */
export const TFE_TEAM_ACCESS: TerraformMapping = {
  type: 'tfe_team_access',
  order: 3,
  map(r, ctx) {
    const v = r.values;
    // `permissions` is computed for a fixed level; only `custom` access is set by it.
    if (!(TEAM_ACCESS_LEVELS as readonly unknown[]).includes(v.access)) return { skip: `access "${v.access}": custom permissions are not managed by TeamAccess` };
    const team = ctx.find('tfe_team', { id: v.team_id });
    if (!team) return { skip: `its team ${v.team_id} is not in the state, or not taken` };
    const ws = ctx.find('tfe_workspace', { id: v.workspace_id });
    if (!ws) return { skip: `its workspace ${v.workspace_id} is not in the state, or not taken` };
    return {
      kind: TEAM_ACCESS.kind,
      className: 'platform.TeamAccess',
      importId: String(v.id),
      props: { team: new ConstructRef(team.address), workspace: new ConstructRef(ws.address), access: enumOf('platform.TeamAccessLevel', String(v.access)) },
    };
  },
};
