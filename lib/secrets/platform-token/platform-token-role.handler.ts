import { HandlerContext, ResourceHandler } from '../../core/engine/handler';
import { PlatformTokenClient } from './platform-token-client';
import { roleHandler, secretsClient } from '../engine-util';
import { PLATFORM_TOKEN_ROLE } from './platform-token-role.schema';

const client = (ctx: HandlerContext) => new PlatformTokenClient(secretsClient(ctx), ctx.address);

/** Lifecycle of `secrets.PlatformTokenRole` (`{mount}/role/<name>`); the service leaves out the kinds a role does not use (read as ''). */
export const platformTokenRoleHandler: ResourceHandler = roleHandler({
  schema: PLATFORM_TOKEN_ROLE,
  section: 'role',
  example: 'platform/role/ci',
  api: {
    read: (ctx, mount, name) => client(ctx).readRole(mount, name),
    write: (ctx, mount, name, body) => client(ctx).writeRole(mount, name, body),
    delete: (ctx, mount, name) => client(ctx).deleteRole(mount, name),
  },
});
