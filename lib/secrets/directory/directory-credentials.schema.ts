import { KindSchema } from '../../core/schema';
import { credentialsSchema } from '../shared/engine-fields';

/** `secrets.DirectoryCredentials`: `GET {mount}/creds/<role>`, the managed account's current and last password. */
export const DIRECTORY_CREDENTIALS: KindSchema = credentialsSchema('secrets.DirectoryCredentials', 'role', {
  username: { type: 'string' },
  currentPassword: { type: 'string', sensitive: true },
  lastPassword: { type: 'string', sensitive: true },
});
