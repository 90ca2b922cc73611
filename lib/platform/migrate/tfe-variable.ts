import { isSet, setOnly } from '../../core/migrate/mapping-util';
import { ConstructRef, EnumMember, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { VARIABLE } from '../variable/variable.schema';

/** The provider's categories as converge's: Terraform's input variables are the spec's `engine`. */
const CATEGORIES: Record<string, EnumMember> = {
  terraform: new EnumMember('platform.VariableCategory', 'ENGINE', 'engine'),
  env: new EnumMember('platform.VariableCategory', 'ENV', 'env'),
};

/**
 * `tfe_variable` -> `platform.Variable` of a workspace, or of a variable set (`variable_set_id`): imported by
 * `<workspace id>/<variable id>` or `<variable set id>/<variable id>`.
 * A sensitive variable's value is read from the environment, never written.
 */
export const TFE_VARIABLE: TerraformMapping = {
  type: 'tfe_variable',
  order: 4,
  map(r, ctx) {
    const v = r.values;
    const category = CATEGORIES[String(v.category)];
    if (!category) return { skip: `category "${v.category}" has no converge VariableCategory` };
    const inSet = isSet(v.variable_set_id);
    const parent = inSet ? ctx.find('tfe_variable_set', { id: v.variable_set_id }) : ctx.find('tfe_workspace', { id: v.workspace_id });
    if (!parent) return { skip: `its ${inSet ? `variable set ${v.variable_set_id}` : `workspace ${v.workspace_id}`} is not in the state, or not taken` };
    const sensitive = v.sensitive === true;
    if (sensitive && !isSet(v.value)) return { skip: 'a sensitive variable whose value is not in the state' };
    return {
      kind: VARIABLE.kind,
      className: 'platform.Variable',
      importId: `${inSet ? v.variable_set_id : v.workspace_id}/${v.id}`,
      props: setOnly({
        [inSet ? 'variableSet' : 'workspace']: new ConstructRef(parent.address),
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
