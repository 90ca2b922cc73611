import { KindSchema } from '../../core/schema';
import { mountField } from '../shared/engine-fields';

/**
 * `secrets.AppRoleRole`: a role of the AppRole auth method (`auth/<mount>/role/<name>`; the real
 * service's body, the spec is silent). The service lower-cases role names and policy names.
 */
export const APPROLE_ROLE: KindSchema = {
  kind: 'secrets.AppRoleRole',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('approle'),
    name: {
      type: 'string', required: true, local: true, replace: true, identity: true,
      pattern: /^[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?$/,
      patternRule: 'must be a role name: lower-case letters, digits, "_", "-" and "." (the service lower-cases names), starting and ending with a letter, digit or "_"',
    },
    tokenPolicies: { type: 'string-set', default: [], pattern: /^[a-z0-9_.-]+$/, patternRule: 'each must be a policy name in lower case (the service lower-cases them)' },
    tokenTtl: { type: 'duration', min: 0, default: '0s' },
    tokenMaxTtl: { type: 'duration', min: 0, default: '0s' },
    tokenNumUses: { type: 'integer', min: 0, default: 0 },
    tokenType: { type: 'string', oneOf: ['default', 'service', 'batch'], default: 'default' },
    bindSecretId: { type: 'boolean', default: true },
    secretIdTtl: { type: 'duration', min: 0, default: '0s' },
    secretIdNumUses: { type: 'integer', min: 0, default: 0 },
  },
  outputs: {
    roleId: { type: 'string' },
  },
  unmanaged: {
    secret_id_bound_cidrs: 'not managed yet (network restrictions)',
    token_bound_cidrs: 'not managed yet (network restrictions)',
    token_explicit_max_ttl: 'not managed yet',
    token_no_default_policy: 'not managed yet',
    token_period: 'not managed yet (periodic tokens)',
    local_secret_ids: 'set once at creation on the real service; not managed',
    token_strictly_bind_ip: 'deprecated',
  },
};
