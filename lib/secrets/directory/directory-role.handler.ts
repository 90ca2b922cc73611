import { HandlerContext, ResourceHandler } from '../../core/engine/handler';
import { secretsClient } from '../shared/engine-util';
import { pathObjectHandler } from '../shared/path-object-handler';
import { DirectoryClient, DirectoryRoleData } from './directory-client';
import { DIRECTORY_ROLE } from './directory-role.schema';
import { policyPath, READ_AT_ID, seg } from '../shared/policy-paths';

function client(ctx: HandlerContext): DirectoryClient {
  return new DirectoryClient(secretsClient(ctx), ctx.address);
}

/** Lifecycle of `secrets.DirectoryRole` (`{mount}/roles/<name>`). */
export const directoryRoleHandler: ResourceHandler = pathObjectHandler(DIRECTORY_ROLE, 'roles', {
  importExample: 'directory/roles/app',
  destroyWarning: 'deletes the role: the service stops managing the account\'s password (the account stays in the directory with its last password)',
  permissions: (s) => [policyPath(`${seg(s.mount)}/roles/${seg(s.name, 'name')}`, 'read', 'update', 'delete')],
  lookupPermissions: READ_AT_ID,
  calls: {
    read: (ctx, mount, name) => client(ctx).readRole(mount, name),
    write: (ctx, mount, name, body) => client(ctx).writeRole(mount, name, body),
    remove: (ctx, mount, name) => client(ctx).deleteRole(mount, name),
    outputs: (r: DirectoryRoleData) => ({ passwordLastSet: r.password_last_set ?? '', lastServiceRotation: r.last_service_rotation ?? '' }),
  },
});
