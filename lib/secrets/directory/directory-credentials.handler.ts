import { DataSourceHandler } from '../../core/engine/handler';
import { dataSourceMetadata } from '../../core/schema';
import { secretsClient } from '../shared/engine-util';
import { DirectoryClient } from './directory-client';
import { DIRECTORY_CREDENTIALS } from './directory-credentials.schema';
import { policyPath, seg } from '../shared/policy-paths';

/** `secrets.DirectoryCredentials`: read on every plan (a read rotates only once the role's ttl has passed). */
export const directoryCredentialsHandler: DataSourceHandler = {
  ...dataSourceMetadata(DIRECTORY_CREDENTIALS),
  permissions: (s) => [policyPath(`${seg(s.mount)}/creds/${seg(s.role, 'role')}`, 'read')],
  async read(ctx, spec) {
    const c = await new DirectoryClient(secretsClient(ctx), ctx.address).credentials(spec.mount as string, spec.role as string);
    return { username: c.username, currentPassword: c.current_password, lastPassword: c.last_password ?? '' };
  },
};
