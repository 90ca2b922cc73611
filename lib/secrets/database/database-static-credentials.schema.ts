import { KindSchema } from '../../core/schema';
import { credentialsSchema } from '../shared/engine-fields';

/** `secrets.DatabaseStaticCredentials`: `GET {mount}/static-creds/<role>`, the static user's current password. */
export const DATABASE_STATIC_CREDENTIALS: KindSchema = credentialsSchema('secrets.DatabaseStaticCredentials', 'role', {
  username: { type: 'string' },
  password: { type: 'string', sensitive: true },
  lastServiceRotation: { type: 'string' },
  rotationPeriod: { type: 'number' },
  ttl: { type: 'number' },
});
