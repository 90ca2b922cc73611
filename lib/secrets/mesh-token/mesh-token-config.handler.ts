import { HandlerContext, ResourceHandler } from '../../core/engine/handler';
import { MeshAccessInput, MeshTokenClient } from './mesh-token-client';
import { mountSettingsHandler, secretsClient } from '../shared/engine-util';
import { MESH_TOKEN_CONFIG } from './mesh-token-config.schema';
import { policyPath, seg } from '../shared/policy-paths';

const client = (ctx: HandlerContext) => new MeshTokenClient(secretsClient(ctx), ctx.address);

/**
 * Lifecycle of `secrets.MeshTokenConfig` (`{mount}/config/access`). The service answers only the
 * address and scheme. Every write sends the whole configuration, token included: a write without a
 * token makes the service bootstrap the mesh's ACL system, which a configured mesh refuses. The
 * service has no delete for it: it goes with the mount.
 */
export const meshTokenConfigHandler: ResourceHandler = mountSettingsHandler({
  schema: MESH_TOKEN_CONFIG,
  suffix: 'config/access',
  example: 'mesh/config/access',
  resendWriteOnly: 'always',
  // Destroy calls nothing (the engine keeps its access configuration).
  permissions: (s) => [policyPath(`${seg(s.mount)}/config/access`, 'read', 'update')],
  api: {
    read: (ctx, mount) => client(ctx).readAccess(mount),
    write: (ctx, mount, body) => client(ctx).writeAccess(mount, body as unknown as MeshAccessInput),
  },
});
