import { isSet, setOnly } from '../../core/migrate/mapping-util';
import { ConstructRef, EnumMember, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { VARIABLE } from '../variable/variable.schema';

/** The provider's categories as converge's: Terraform's input variables are the spec's `engine`. */
const CATEGORIES: Record<string, EnumMember> = {
  terraform: new EnumMember('platform.VariableCategory', 'ENGINE', 'engine'),
  env: new EnumMember('platform.VariableCategory', 'ENV', 'env'),
};

/**
 * `tfe_variable` -> `platform.Variable` of a workspace (imported by `<workspace id>/<variable id>`).
 * A sensitive variable's value is read from the environment, never written.
 */
export const TFE_VARIABLE: TerraformMapping = {
  type: 'tfe_variable',
  order: 3,
  map(r, ctx) {
    const v = r.values;
    if (isSet(v.variable_set_id)) return { skip: 'a variable of a variable set: not taken yet' };
    const category = CATEGORIES[String(v.category)];
    if (!category) return { skip: `category "${v.category}" has no converge VariableCategory` };
    const ws = ctx.find('tfe_workspace', { id: v.workspace_id });
    if (!ws) return { skip: `its workspace ${v.workspace_id} is not in the state, or not taken` };
    const sensitive = v.sensitive === true;
    if (sensitive && !isSet(v.value)) return { skip: 'a sensitive variable whose value is not in the state' };
    return {
      kind: VARIABLE.kind,
      className: 'platform.Variable',
      importId: `${v.workspace_id}/${v.id}`,
      props: setOnly({
        workspace: new ConstructRef(ws.address),
        key: v.key,
        value: sensitive ? undefined : v.value,
        sensitiveValue: sensitive ? ctx.secret(r, 'value', v.value) : undefined,
        category: category.value === 'engine' ? undefined : category,
        hcl: v.hcl,
        description: v.description,
      }),
    };
  },
};
