import { KindSchema } from '../../core/schema';
import { credentialsSchema } from '../shared/engine-fields';
import { LEASE_OUTPUTS } from '../shared/lease';

/** `secrets.DirectoryLibraryCheckOut`: `POST {mount}/library/<set>/check-out`, an account lent under a lease. */
export const DIRECTORY_LIBRARY_CHECK_OUT: KindSchema = credentialsSchema('secrets.DirectoryLibraryCheckOut', 'setName', {
  serviceAccountName: { type: 'string' },
  password: { type: 'string', sensitive: true },
  ...LEASE_OUTPUTS,
}, { ttl: { type: 'duration', min: 1 } });
