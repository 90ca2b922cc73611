import { isSet, setOnly } from '../../core/migrate/mapping-util';
import { ConstructRef, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { VARIABLE_SET } from '../variable-set/variable-set.schema';

/**
 * `tfe_variable_set` -> `platform.VariableSet` (imported by its id, varset-…), with the workspaces its
 * `workspace_ids` lists. Where the state attaches it by `tfe_workspace_variable_set` without `workspace_ids`, or
 * to projects (`tfe_project_variable_set`), the set is not taken: the construct would detach what it cannot list.
 */
export const TFE_VARIABLE_SET: TerraformMapping = {
  type: 'tfe_variable_set',
  order: 3,
  map(r, ctx) {
    const v = r.values;
    if (isSet(v.parent_project_id)) return { skip: 'parent_project_id (a project-owned variable set) has no VariableSet prop' };
    if (ctx.inState('tfe_project_variable_set', { variable_set_id: v.id })) return { skip: 'its projects (tfe_project_variable_set) are not taken yet' };
    const listed = Array.isArray(v.workspace_ids) ? v.workspace_ids.map(String) : undefined;
    if (!listed && ctx.inState('tfe_workspace_variable_set', { variable_set_id: v.id })) {
      return { skip: 'its workspaces are attached by tfe_workspace_variable_set and not listed in workspace_ids' };
    }
    const global = v.global === true;
    const workspaces: ConstructRef[] = [];
    for (const id of global ? [] : listed ?? []) {
      const ws = ctx.find('tfe_workspace', { id });
      if (!ws) return { skip: `its workspace ${id} is not in the state, or not taken` };
      workspaces.push(new ConstructRef(ws.address));
    }
    return {
      kind: VARIABLE_SET.kind,
      className: 'platform.VariableSet',
      importId: String(v.id),
      props: setOnly({
        organization: ctx.organization(String(v.organization)),
        name: v.name,
        description: v.description,
        global: global || undefined,
        priority: v.priority === true || undefined,
        workspaces,
      }),
    };
  },
};
