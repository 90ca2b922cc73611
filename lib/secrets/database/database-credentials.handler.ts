import { DataSourceHandler } from '../../core/engine/handler';
import { dataSourceMetadata } from '../../core/schema';
import { secretsClient } from '../shared/engine-util';
import { issuedLease, leasedCredentials, leaseOutputs } from '../shared/lease';
import { DatabaseClient } from './database-client';
import { DATABASE_CREDENTIALS } from './database-credentials.schema';
import { LEASES, policyPath, seg } from '../shared/policy-paths';

/** `secrets.DatabaseCredentials`: a new database user per read, so kept in state while its lease lasts. */
export const databaseCredentialsHandler: DataSourceHandler = {
  ...dataSourceMetadata(DATABASE_CREDENTIALS),
  permissions: (s) => [policyPath(`${seg(s.mount)}/creds/${seg(s.role, 'role')}`, 'read'), ...LEASES],
  async read(ctx, spec) {
    const c = await new DatabaseClient(secretsClient(ctx), ctx.address).generateCredentials(spec.mount as string, spec.role as string);
    return { username: c.username, password: c.password, ...leaseOutputs(c) };
  },
  leaseOf: issuedLease,
  ...leasedCredentials('its database user is dropped (the role\'s revocation statements run)'),
};
