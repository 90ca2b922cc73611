import { SpecField } from '../support/spec-tables';

/**
 * The secrets spec does not name the system backend's endpoints: these are the real service's
 * (OpenBao's API documentation, and what `GET` answers on the dev server in ../shared/tools), each
 * field's name on the wire and its default where it has one.
 */
export const SECRETS_SYS_SPEC_FIELDS: Record<string, () => SpecField[]> = {
  // `POST sys/mounts/<path>` and `POST sys/mounts/<path>/tune`: the TTLs travel in `config` when enabling, flat when tuning.
  'secrets.SecretsMount': () => [
    { name: 'type' }, { name: 'description', default: '' }, { name: 'config' }, { name: 'options', default: {} },
    { name: 'local', default: false }, { name: 'seal_wrap', default: false }, { name: 'external_entropy_access', default: false },
    { name: 'plugin_version', default: '' },
    { name: 'default_lease_ttl', default: '0s' }, { name: 'max_lease_ttl', default: '0s' },
  ],
  // `POST sys/auth/<path>` and `POST sys/auth/<path>/tune`: as a secrets engine's mount.
  'secrets.AuthBackend': () => SECRETS_SYS_SPEC_FIELDS['secrets.SecretsMount'](),
  // `POST auth/<mount>/role/<name>` of the AppRole method.
  'secrets.AppRoleRole': () => [
    { name: 'bind_secret_id', default: true }, { name: 'secret_id_bound_cidrs' }, { name: 'secret_id_num_uses', default: 0 },
    { name: 'secret_id_ttl', default: '0s' }, { name: 'local_secret_ids', default: false }, { name: 'token_ttl', default: '0s' },
    { name: 'token_max_ttl', default: '0s' }, { name: 'token_policies', default: [] }, { name: 'token_bound_cidrs' },
    { name: 'token_explicit_max_ttl' }, { name: 'token_no_default_policy', default: false }, { name: 'token_num_uses', default: 0 },
    { name: 'token_period' }, { name: 'token_type', default: 'default' }, { name: 'token_strictly_bind_ip' },
  ],
  // `POST sys/policies/acl/<name>`.
  'secrets.SecretsPolicy': () => [{ name: 'policy' }],
};
