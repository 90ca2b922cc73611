import { block, enumOf, isSet, setOnly } from '../../core/migrate/mapping-util';
import { TerraformMapping } from '../../core/migrate/terraform-mapping';
import { ORGANIZATION_ACCESS_KEYS, TEAM } from '../team/team.schema';

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** `tfe_team` -> `platform.Team` with its organization access (imported by its id, team-…). */
export const TFE_TEAM: TerraformMapping = {
  type: 'tfe_team',
  order: 1,
  map(r, ctx) {
    const v = r.values;
    if (isSet(v.sso_team_id)) return { skip: 'sso_team_id has no Team prop' };
    const access = block(v, 'organization_access');
    const granted = access ? Object.fromEntries(ORGANIZATION_ACCESS_KEYS.filter((k) => access[snake(k)] === true).map((k) => [k, true])) : {};
    return {
      kind: TEAM.kind,
      className: 'platform.Team',
      importId: String(v.id),
      props: setOnly({
        organization: ctx.organization(String(v.organization)),
        name: v.name,
        visibility: isSet(v.visibility) ? enumOf('platform.TeamVisibility', String(v.visibility)) : undefined,
        organizationAccess: Object.keys(granted).length ? granted : undefined,
      }),
    };
  },
};
