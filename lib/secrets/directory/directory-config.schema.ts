import { KindSchema } from '../../core/schema';
import { mountField, NON_EMPTY } from '../shared/engine-fields';

/** Password length the directory engine uses without a policy, and its minimum. */
export const DEFAULT_PASSWORD_LENGTH = 64;
export const MIN_PASSWORD_LENGTH = 14;
/** What a formatter must hold exactly once. */
export const PASSWORD_PLACEHOLDER = '{{PASSWORD}}';

/**
 * `secrets.DirectoryConfig` (`{mount}/config`): the spec's configuration parameters, and the TLS
 * versions its read lists. The bind password is never returned. A password policy excludes
 * `length` and `formatter` (then sent without them, and `length` reads 0).
 */
export const DIRECTORY_CONFIG: KindSchema = {
  kind: 'secrets.DirectoryConfig',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('directory'),
    binddn: { type: 'string', required: true, ...NON_EMPTY },
    bindpass: { type: 'secret', required: true, writeOnly: true },
    url: { type: 'string', default: 'ldap://127.0.0.1' },
    userdn: { type: 'string', default: '' },
    upndomain: { type: 'string', default: '' },
    certificate: { type: 'string', default: '' },
    insecureTls: { type: 'boolean', default: false },
    starttls: { type: 'boolean', default: false },
    tlsMinVersion: { type: 'string', default: 'tls12' },
    tlsMaxVersion: { type: 'string', default: 'tls12' },
    requestTimeout: { type: 'duration', default: '1m30s', min: 1 },
    ttl: { type: 'duration', default: '768h' },
    maxTtl: { type: 'duration', default: '768h' },
    passwordPolicy: { type: 'string', default: '' },
    length: {
      type: 'integer', min: MIN_PASSWORD_LENGTH,
      default: (p: Record<string, unknown>) => (p.passwordPolicy ? 0 : DEFAULT_PASSWORD_LENGTH),
    },
    formatter: {
      type: 'string', default: '',
      pattern: /^(?:(?!\{\{PASSWORD\}\})[\s\S])*\{\{PASSWORD\}\}(?:(?!\{\{PASSWORD\}\})[\s\S])*$/, patternRule: `must contain "${PASSWORD_PLACEHOLDER}" exactly once`,
    },
    lastRotationTolerance: { type: 'duration', default: '5s' },
  },
};
