import { enumOf, setOnly } from '../../core/migrate/mapping-util';
import { TerraformMapping } from '../../core/migrate/terraform-mapping';
import { ORGANIZATION } from '../organization/organization.schema';

/** `tfe_organization` -> `platform.Organization` (imported by its name, which is also its Terraform id). */
export const TFE_ORGANIZATION: TerraformMapping = {
  type: 'tfe_organization',
  order: 0,
  map(r) {
    const v = r.values;
    const positive = (n: unknown) => (typeof n === 'number' && n > 0 ? n : undefined);
    return {
      kind: ORGANIZATION.kind,
      className: 'platform.Organization',
      importId: String(v.name),
      props: setOnly({
        name: v.name,
        email: v.email,
        sessionTimeout: positive(v.session_timeout_minutes),
        sessionRemember: positive(v.session_remember_minutes),
        collaboratorAuthPolicy: typeof v.collaborator_auth_policy === 'string' && v.collaborator_auth_policy
          ? enumOf('platform.CollaboratorAuthPolicy', v.collaborator_auth_policy) : undefined,
        costEstimationEnabled: v.cost_estimation_enabled,
        sendPassingStatusesForUntriggeredSpeculativePlans: v.send_passing_statuses_for_untriggered_speculative_plans,
        aggregatedCommitStatusEnabled: v.aggregated_commit_status_enabled,
        ownersTeamSamlRoleId: v.owners_team_saml_role_id,
        assessmentsEnforced: v.assessments_enforced,
        allowForceDeleteWorkspaces: v.allow_force_delete_workspaces,
      }),
    };
  },
};
