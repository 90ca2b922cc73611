import { DataSourceHandler } from '../../core/engine/handler';
import { PlatformTokenClient } from './platform-token-client';
import { credentialsHandler, secretsClient } from '../shared/engine-util';
import { leasedCredentials, storedLease } from '../shared/lease';
import { PLATFORM_TOKEN_CREDENTIALS } from './platform-token-credentials.schema';
import { LEASES, policyPath, seg } from '../shared/policy-paths';

/**
 * `secrets.PlatformTokenCredentials`: a token of a platform-token role. A user role's token is new on
 * each read and leased: kept from state while more than a third of its lease is left. An organization or
 * team role's token has no lease: the service hands out the same stored token until the role is rotated
 * (or its organization or team changes), so it is read again on each plan, which makes no new token and
 * brings a rotation done outside converge to the constructs that use it.
 */
export const platformTokenCredentialsHandler: DataSourceHandler = {
  ...credentialsHandler(PLATFORM_TOKEN_CREDENTIALS, (ctx, mount, role) => new PlatformTokenClient(secretsClient(ctx), ctx.address).creds(mount, role), storedLease),
  ...leasedCredentials('the user token\'s lease ends'),
  permissions: (s) => [policyPath(`${seg(s.mount)}/creds/${seg(s.role, 'role')}`, 'read'), ...LEASES],
};
