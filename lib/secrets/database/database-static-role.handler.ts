import { HandlerContext, ResourceHandler } from '../../core/engine/handler';
import { secretsClient } from '../shared/engine-util';
import { pathObjectHandler } from '../shared/path-object-handler';
import { DatabaseClient } from './database-client';
import { DATABASE_STATIC_ROLE } from './database-static-role.schema';
import { policyPath, READ_AT_ID, seg } from '../shared/policy-paths';

function client(ctx: HandlerContext): DatabaseClient {
  return new DatabaseClient(secretsClient(ctx), ctx.address);
}

/**
 * Lifecycle of `secrets.DatabaseStaticRole` (`{mount}/static-roles/<name>`). The service rotates
 * the password at creation; the username cannot change in place (replacement).
 */
export const databaseStaticRoleHandler: ResourceHandler = pathObjectHandler(DATABASE_STATIC_ROLE, 'static-roles', {
  importExample: 'database/static-roles/app',
  destroyWarning: 'deletes the static role: the service stops rotating the user\'s password; the database user itself stays and must be cleaned up by hand',
  permissions: (s) => [policyPath(`${seg(s.mount)}/static-roles/${seg(s.name, 'name')}`, 'create', 'read', 'update', 'delete')],
  lookupPermissions: READ_AT_ID,
  calls: {
    read: (ctx, mount, name) => client(ctx).readStaticRole(mount, name),
    write: (ctx, mount, name, body) => client(ctx).writeStaticRole(mount, name, body),
    remove: (ctx, mount, name) => client(ctx).deleteStaticRole(mount, name),
  },
});
