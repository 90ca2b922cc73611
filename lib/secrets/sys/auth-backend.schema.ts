import { KindSchema } from '../../core/schema';
import { SECRETS_MOUNT } from './secrets-mount.schema';

/**
 * `secrets.AuthBackend`: an auth method enabled at `auth/<path>` (`POST sys/auth/<path>`), tuned in
 * place (`POST sys/auth/<path>/tune`). The real service's body (the spec is silent), as a secrets
 * engine's mount: type, description, `config` TTLs, options.
 */
export const AUTH_BACKEND: KindSchema = {
  ...SECRETS_MOUNT,
  kind: 'secrets.AuthBackend',
  fields: {
    ...SECRETS_MOUNT.fields,
    type: { ...SECRETS_MOUNT.fields.type, patternRule: 'must be an auth method type such as "approle" or "userpass"' },
  },
};
