import { isSet, setOnly } from '../../core/migrate/mapping-util';
import { TerraformMapping } from '../../core/migrate/terraform-mapping';
import { NO_CODE_MODULE } from '../no-code/no-code-module.schema';

/** `tfe_no_code_module` -> `platform.NoCodeModule`: its registry module (by id in Terraform) is named by module name and provider. */
export const TFE_NO_CODE_MODULE: TerraformMapping = {
  type: 'tfe_no_code_module',
  map(r, ctx) {
    const v = r.values;
    if (isSet(v.variable_options)) return { skip: 'variable_options: not taken yet (set them on the NoCodeModule by hand)' };
    const reg = ctx.inState('tfe_registry_module', { id: v.registry_module });
    if (!reg) return { skip: `its registry module ${v.registry_module} is not in the state: converge names it by module name and provider` };
    return {
      kind: NO_CODE_MODULE.kind,
      className: 'platform.NoCodeModule',
      importId: String(v.id),
      props: setOnly({
        organization: ctx.organization(String(v.organization)),
        moduleName: reg.values.name,
        moduleProvider: reg.values.module_provider,
        versionPin: v.version_pin,
        enabled: v.enabled,
      }),
    };
  },
};
