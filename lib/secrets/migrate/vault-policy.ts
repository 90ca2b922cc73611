import { isSet } from '../../core/migrate/mapping-util';
import { TerraformMapping } from '../../core/migrate/terraform-mapping';
import { SECRETS_POLICY } from '../sys/secrets-policy.schema';

/** `vault_policy` -> `secrets.SecretsPolicy` (imported by its name; the document kept as written). */
export const VAULT_POLICY: TerraformMapping = {
  type: 'vault_policy',
  map(r) {
    const v = r.values;
    if (isSet(v.namespace)) return { skip: `namespace "${v.namespace}" (enterprise) is not expressed` };
    return {
      kind: SECRETS_POLICY.kind,
      className: 'secrets.SecretsPolicy',
      importId: String(v.name),
      props: { name: v.name, policy: v.policy },
    };
  },
};
