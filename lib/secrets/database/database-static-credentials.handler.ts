import { DataSourceHandler } from '../../core/engine/handler';
import { dataSourceMetadata } from '../../core/schema';
import { secretsClient } from '../shared/engine-util';
import { DatabaseClient } from './database-client';
import { DATABASE_STATIC_CREDENTIALS } from './database-static-credentials.schema';
import { policyPath, seg } from '../shared/policy-paths';

/** `secrets.DatabaseStaticCredentials`: read on every plan (no lease: reading issues nothing). */
export const databaseStaticCredentialsHandler: DataSourceHandler = {
  ...dataSourceMetadata(DATABASE_STATIC_CREDENTIALS),
  permissions: (s) => [policyPath(`${seg(s.mount)}/static-creds/${seg(s.role, 'role')}`, 'read')],
  async read(ctx, spec) {
    const c = await new DatabaseClient(secretsClient(ctx), ctx.address).staticCredentials(spec.mount as string, spec.role as string);
    return {
      username: c.username, password: c.password, lastServiceRotation: c.last_service_rotation, rotationPeriod: c.rotation_period, ttl: c.ttl,
    };
  },
  // The time left counts down between two reads: no change of the credentials.
  stableForm: ({ ttl: _ttl, ...rest }) => rest,
};
