import { block, isSet, setOnly } from '../../core/migrate/mapping-util';
import { TerraformMapping } from '../../core/migrate/terraform-mapping';
import { AUTH_BACKEND } from '../sys/auth-backend.schema';

/** Settings of the `tune` block an AuthBackend has no prop for: taken only when unset. */
const TUNE_NOT_EXPRESSED = ['audit_non_hmac_request_keys', 'audit_non_hmac_response_keys', 'listing_visibility', 'passthrough_request_headers',
  'allowed_response_headers', 'token_type'];

/** `vault_auth_backend` -> `secrets.AuthBackend` (imported by its path; its `tune` TTLs as durations). */
export const VAULT_AUTH_BACKEND: TerraformMapping = {
  type: 'vault_auth_backend',
  order: 0,
  map(r) {
    const v = r.values;
    if (isSet(v.namespace)) return { skip: `namespace "${v.namespace}" (enterprise) is not expressed` };
    if (v.local === true) return { skip: 'local has no AuthBackend prop' };
    const tune = block(v, 'tune') ?? {};
    const unexpressed = TUNE_NOT_EXPRESSED.find((a) => isSet(tune[a]));
    if (unexpressed) return { skip: `tune.${unexpressed} has no AuthBackend prop` };
    const path = isSet(v.path) ? String(v.path) : String(v.type);
    return {
      kind: AUTH_BACKEND.kind,
      className: 'secrets.AuthBackend',
      importId: path,
      props: setOnly({
        path,
        type: v.type,
        description: v.description,
        defaultLeaseTtl: tune.default_lease_ttl,
        maxLeaseTtl: tune.max_lease_ttl,
      }),
    };
  },
};
