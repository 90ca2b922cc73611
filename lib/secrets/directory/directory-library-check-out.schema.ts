import { KindSchema } from '../../core/schema';
import { LEASE_OUTPUTS } from '../lease';

/** `secrets.DirectoryLibraryCheckOut`: `POST {mount}/library/<set>/check-out`, an account lent under a lease. */
export const DIRECTORY_LIBRARY_CHECK_OUT: KindSchema = {
  kind: 'secrets.DirectoryLibraryCheckOut',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: { type: 'string' },
    setName: { type: 'string' },
    ttl: { type: 'duration', min: 1 },
  },
  outputs: {
    serviceAccountName: { type: 'string' },
    password: { type: 'string', sensitive: true },
    ...LEASE_OUTPUTS,
  },
};
