import { KindSchema } from '../../core/schema';
import { LEASE_OUTPUTS } from '../lease';

/** `secrets.DatabaseCredentials`: `GET {mount}/creds/<role>`, a new database user on each read, leased. */
export const DATABASE_CREDENTIALS: KindSchema = {
  kind: 'secrets.DatabaseCredentials',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: { type: 'string' },
    roleName: { type: 'string' },
  },
  outputs: {
    username: { type: 'string' },
    password: { type: 'string', sensitive: true },
    ...LEASE_OUTPUTS,
  },
};
