import { isSet, seconds, setOnly } from '../../core/migrate/mapping-util';
import { MapLiteral, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { SECRETS_MOUNT } from '../sys/secrets-mount.schema';

/** Attributes of the provider's schema a SecretsMount has no prop for: taken only when unset or false. */
const NOT_EXPRESSED = [
  'local', 'seal_wrap', 'external_entropy_access', 'audit_non_hmac_request_keys', 'audit_non_hmac_response_keys', 'allowed_managed_keys',
  'plugin_version', 'listing_visibility', 'passthrough_request_headers', 'allowed_response_headers', 'delegated_auth_accessors', 'identity_token_key',
];

/** `vault_mount` -> `secrets.SecretsMount` (imported by its path; TTLs in seconds become durations). */
export const VAULT_MOUNT: TerraformMapping = {
  type: 'vault_mount',
  order: 0,
  map(r) {
    const v = r.values;
    if (isSet(v.namespace)) return { skip: `namespace "${v.namespace}" (enterprise) is not expressed` };
    const unexpressed = NOT_EXPRESSED.find((a) => isSet(v[a]) && v[a] !== false);
    if (unexpressed) return { skip: `${unexpressed} has no SecretsMount prop` };
    return {
      kind: SECRETS_MOUNT.kind,
      className: 'secrets.SecretsMount',
      importId: String(v.path),
      props: setOnly({
        path: v.path,
        type: v.type,
        description: v.description,
        defaultLeaseTtl: seconds(v.default_lease_ttl_seconds),
        maxLeaseTtl: seconds(v.max_lease_ttl_seconds),
        options: isSet(v.options) ? new MapLiteral(v.options as Record<string, unknown>) : undefined,
      }),
    };
  },
};
