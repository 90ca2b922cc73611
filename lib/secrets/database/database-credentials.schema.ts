import { KindSchema } from '../../core/schema';
import { credentialsSchema } from '../shared/engine-fields';
import { LEASE_OUTPUTS } from '../shared/lease';

/** `secrets.DatabaseCredentials`: `GET {mount}/creds/<role>`, a new database user on each read, leased. */
export const DATABASE_CREDENTIALS: KindSchema = credentialsSchema('secrets.DatabaseCredentials', 'role', {
  username: { type: 'string' },
  password: { type: 'string', sensitive: true },
  ...LEASE_OUTPUTS,
});
