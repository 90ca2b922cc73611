import { KindSchema } from '../../core/schema';
import { credentialsSchema } from '../shared/engine-fields';
import { LEASE_OUTPUTS } from '../shared/lease';

/**
 * `secrets.AppRoleSecretId`: `POST auth/<mount>/role/<role>/secret-id`, a new secret id on each
 * read, good for the role's `secret_id_ttl` (its "lease": no lease id, the accessor stands for it).
 */
export const APPROLE_SECRET_ID: KindSchema = credentialsSchema('secrets.AppRoleSecretId', 'role', {
  secretId: { type: 'string', sensitive: true },
  secretIdAccessor: { type: 'string' },
  /** `auth/<mount>/role/<role>`: where the accessor is looked up and destroyed. */
  rolePath: { type: 'string' },
  ...LEASE_OUTPUTS,
});
