import { KindSchema } from '../../core/schema';
import { mountField } from '../shared/engine-fields';

/**
 * `secrets.SecretsMount`: a secrets engine mounted at a path (`POST sys/mounts/<path>`), tuned in
 * place (`POST sys/mounts/<path>/tune`: description, lease TTLs, options). The spec does not name
 * these endpoints: the body is the real service's (OpenBao), `config` flattened into the two TTLs.
 */
export const SECRETS_MOUNT: KindSchema = {
  kind: 'secrets.SecretsMount',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    path: { ...mountField(''), default: undefined, required: true },
    /** The engine: a new type is a new engine (its data does not carry over), so a change replaces the mount. */
    type: { type: 'string', required: true, replace: true, pattern: /^[a-z0-9][a-z0-9_-]*$/, patternRule: 'must be an engine type such as "kv", "totp" or "database"' },
    description: { type: 'string', default: '' },
    /** `config.default_lease_ttl`; 0 is the system's default. */
    defaultLeaseTtl: { type: 'duration', min: 0, default: '0s' },
    /** `config.max_lease_ttl`; 0 is the system's default. */
    maxLeaseTtl: { type: 'duration', min: 0, default: '0s' },
    options: { type: 'string-map', default: {} },
  },
  outputs: {
    accessor: { type: 'string' },
    /** The path, as an output of another name than the field (a reference to the field would be known at plan): a construct placed in the mount by reference waits for it, planned as new until the mount exists. */
    mountedPath: { type: 'string' },
  },
  unmanaged: {
    config: 'the lease TTLs (`default_lease_ttl`, `max_lease_ttl`) travel in it: `defaultLeaseTtl` and `maxLeaseTtl`',
    local: 'replication only (a dev or single-cluster service ignores it)',
    seal_wrap: 'an enterprise seal feature',
    external_entropy_access: 'an enterprise seal feature',
    plugin_version: 'the built-in plugin is used',
  },
};
