import { HandlerContext, ResourceHandler } from '../../core/engine/handler';
import { PlatformTokenClient } from './platform-token-client';
import { secretsClient } from '../shared/engine-util';
import { pathObjectHandler } from '../shared/path-object-handler';
import { policyPath, READ_AT_ID, seg } from '../shared/policy-paths';
import { PLATFORM_TOKEN_ROLE } from './platform-token-role.schema';

const client = (ctx: HandlerContext) => new PlatformTokenClient(secretsClient(ctx), ctx.address);

/** Lifecycle of `secrets.PlatformTokenRole` (`{mount}/role/<name>`); the service leaves out the kinds a role does not use (read as ''). */
export const platformTokenRoleHandler: ResourceHandler = pathObjectHandler(PLATFORM_TOKEN_ROLE, 'role', {
  importExample: 'platform/role/ci',
  permissions: (s) => [policyPath(`${seg(s.mount)}/role/${seg(s.name, 'name')}`, 'read', 'update', 'delete')],
  lookupPermissions: READ_AT_ID,
  calls: {
    read: (ctx, mount, name) => client(ctx).readRole(mount, name),
    write: (ctx, mount, name, body) => client(ctx).writeRole(mount, name, body),
    remove: (ctx, mount, name) => client(ctx).deleteRole(mount, name),
  },
});
