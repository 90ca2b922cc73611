import { HandlerContext, ResourceHandler } from '../../core/engine/handler';
import { secretsClient } from '../shared/engine-util';
import { pathObjectHandler } from '../shared/path-object-handler';
import { DatabaseClient } from './database-client';
import { DATABASE_ROLE } from './database-role.schema';
import { policyPath, READ_AT_ID, seg } from '../shared/policy-paths';

function client(ctx: HandlerContext): DatabaseClient {
  return new DatabaseClient(secretsClient(ctx), ctx.address);
}

/** Lifecycle of `secrets.DatabaseRole` (`{mount}/roles/<name>`); every field is returned by the read. */
export const databaseRoleHandler: ResourceHandler = pathObjectHandler(DATABASE_ROLE, 'roles', {
  importExample: 'database/roles/app',
  destroyWarning: 'deletes the role: no new credentials are issued. Credentials converge issued and keeps in state (DatabaseCredentials) '
    + 'are revoked first, which drops their database users; credentials issued to others stay until their lease ends, when the service drops their users',
  permissions: (s) => [policyPath(`${seg(s.mount)}/roles/${seg(s.name, 'name')}`, 'create', 'read', 'update', 'delete')],
  lookupPermissions: READ_AT_ID,
  calls: {
    read: (ctx, mount, name) => client(ctx).readRole(mount, name),
    write: (ctx, mount, name, body) => client(ctx).writeRole(mount, name, body),
    remove: (ctx, mount, name) => client(ctx).deleteRole(mount, name),
  },
});
