import { enumOf, isSet, setOnly } from '../../core/migrate/mapping-util';
import { ConstructRef, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { WORKSPACE } from '../workspace/workspace.schema';

/** Attributes of the provider's schema a Workspace has no prop for: taken only when unset. */
const NOT_EXPRESSED = ['vcs_repo', 'trigger_prefixes', 'trigger_patterns', 'ssh_key_id'];

/**
 * `tfe_workspace` -> `platform.Workspace` (imported by its id, ws-…). Its project and agent pool
 * become references to their constructs; the organization's default project is left out (the
 * workspace's default).
 */
export const TFE_WORKSPACE: TerraformMapping = {
  type: 'tfe_workspace',
  order: 2,
  map(r, ctx) {
    const v = r.values;
    const unexpressed = NOT_EXPRESSED.find((a) => isSet(v[a]));
    if (unexpressed) return { skip: `${unexpressed} has no Workspace prop` };
    const org = ctx.inState('tfe_organization', { name: v.organization });
    let project: ConstructRef | undefined;
    if (isSet(v.project_id) && v.project_id !== org?.values.default_project_id) {
      const p = ctx.find('tfe_project', { id: v.project_id });
      // Project.fromName needs the name, which the workspace's state does not hold.
      if (!p) return { skip: `its project ${v.project_id} is not in the state (Project.fromName needs its name)` };
      project = new ConstructRef(p.address);
    }
    let agentPool: ConstructRef | undefined;
    if (isSet(v.agent_pool_id)) {
      const a = ctx.find('tfe_agent_pool', { id: v.agent_pool_id });
      if (!a) return { skip: `its agent pool ${v.agent_pool_id} is not in the state` };
      agentPool = new ConstructRef(a.address);
    }
    return {
      kind: WORKSPACE.kind,
      className: 'platform.Workspace',
      importId: String(v.id),
      props: setOnly({
        organization: ctx.organization(String(v.organization)),
        name: v.name,
        description: v.description,
        project,
        executionMode: isSet(v.execution_mode) ? enumOf('platform.ExecutionMode', String(v.execution_mode)) : undefined,
        agentPool,
        terraformVersion: v.terraform_version,
        workingDirectory: v.working_directory,
        autoApply: v.auto_apply,
        tags: v.tag_names,
      }),
    };
  },
};
