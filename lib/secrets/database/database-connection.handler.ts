import { HandlerContext, ResourceHandler } from '../../core/engine/handler';
import { secretsClient } from '../shared/engine-util';
import { pathObjectHandler } from '../shared/path-object-handler';
import { DatabaseClient } from './database-client';
import { DATABASE_CONNECTION } from './database-connection.schema';
import { policyPath, READ_AT_ID, seg } from '../shared/policy-paths';

function client(ctx: HandlerContext): DatabaseClient {
  return new DatabaseClient(secretsClient(ctx), ctx.address);
}

/**
 * Lifecycle of `secrets.DatabaseConnection` (`{mount}/config/<name>`). The root password is
 * write-only: sent on create and only when a plan changes it, because after a root rotation the
 * service holds a password that re-sending the old one would break. The read answers the URL and
 * the user under `connection_details` and the rotation statements as `root_credentials_rotate_statements`.
 */
export const databaseConnectionHandler: ResourceHandler = pathObjectHandler(DATABASE_CONNECTION, 'config', {
  importExample: 'database/config/app-db',
  destroyWarning: 'deletes the database connection: its roles stop issuing credentials, and a root password rotated by the service is lost with it (only the service knew it). '
    + 'Leases still open under it (credentials issued to others) can no longer be revoked: their database users stay in the database',
  // The path has an existence check (its first write is a `create`); a root rotation on create is one more write.
  permissions: (s) => [
    policyPath(`${seg(s.mount)}/config/${seg(s.name, 'name')}`, 'create', 'read', 'update', 'delete'),
    ...(s.rotateRootOnCreate === true ? [policyPath(`${seg(s.mount)}/rotate-root/${seg(s.name, 'name')}`, 'update')] : []),
  ],
  lookupPermissions: READ_AT_ID,
  calls: {
    async read(ctx, mount, name) {
      const c = await client(ctx).readConnection(mount, name);
      return c && {
        ...c, root_rotation_statements: c.root_credentials_rotate_statements,
        connection_url: c.connection_details.connection_url, username: c.connection_details.username,
      };
    },
    write: (ctx, mount, name, body) => client(ctx).writeConnection(mount, name, body),
    remove: (ctx, mount, name) => client(ctx).deleteConnection(mount, name),
    async afterCreate(ctx, mount, name, spec) {
      if (spec.rotateRootOnCreate) await client(ctx).rotateRoot(mount, name);
    },
  },
});
