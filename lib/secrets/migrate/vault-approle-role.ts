import { isSet, seconds, setOnly } from '../../core/migrate/mapping-util';
import { ConstructRef, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { APPROLE_ROLE } from '../approle/approle-role.schema';

/** Attributes of the provider's schema an AppRoleRole does not manage: taken only when unset (0, false, empty). */
const NOT_EXPRESSED = ['secret_id_bound_cidrs', 'token_bound_cidrs', 'token_explicit_max_ttl', 'token_no_default_policy', 'token_period', 'local_secret_ids'];

/**
 * `vault_approle_auth_backend_role` -> `secrets.AppRoleRole` (imported by `<mount>/role/<name>`; TTLs in
 * seconds become durations). Its auth method becomes a reference when the state holds it.
 */
export const VAULT_APPROLE_ROLE: TerraformMapping = {
  type: 'vault_approle_auth_backend_role',
  map(r, ctx) {
    const v = r.values;
    if (isSet(v.namespace)) return { skip: `namespace "${v.namespace}" (enterprise) is not expressed` };
    const unexpressed = NOT_EXPRESSED.find((a) => isSet(v[a]) && v[a] !== false && v[a] !== 0);
    if (unexpressed) return { skip: `${unexpressed} has no AppRoleRole prop` };
    const mount = isSet(v.backend) ? String(v.backend) : 'approle';
    const backend = ctx.find('vault_auth_backend', { path: mount });
    return {
      kind: APPROLE_ROLE.kind,
      className: 'secrets.AppRoleRole',
      importId: `${mount}/role/${v.role_name}`,
      props: setOnly({
        ...(backend ? { authBackend: new ConstructRef(backend.address) } : { mount }),
        name: v.role_name,
        tokenPolicies: v.token_policies,
        tokenTtl: seconds(v.token_ttl),
        tokenMaxTtl: seconds(v.token_max_ttl),
        tokenNumUses: typeof v.token_num_uses === 'number' && v.token_num_uses > 0 ? v.token_num_uses : undefined,
        tokenType: isSet(v.token_type) && v.token_type !== 'default' ? v.token_type : undefined,
        bindSecretId: v.bind_secret_id,
        secretIdTtl: seconds(v.secret_id_ttl),
        secretIdNumUses: typeof v.secret_id_num_uses === 'number' && v.secret_id_num_uses > 0 ? v.secret_id_num_uses : undefined,
      }),
    };
  },
};
