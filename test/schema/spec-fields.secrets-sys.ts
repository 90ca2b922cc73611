import { SpecField } from './spec-text';

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
  // `POST sys/policies/acl/<name>`.
  'secrets.SecretsPolicy': () => [{ name: 'policy' }],
};
