import { HandlerContext, ResourceHandler } from '../../core/engine/handler';
import { PlatformTokenClient, PlatformTokenConfigInput } from './platform-token-client';
import { mountSettingsHandler, secretsClient } from '../shared/engine-util';
import { PLATFORM_TOKEN_CONFIG } from './platform-token-config.schema';
import { policyPath, seg } from '../shared/policy-paths';

const client = (ctx: HandlerContext) => new PlatformTokenClient(secretsClient(ctx), ctx.address);

/**
 * Lifecycle of `secrets.PlatformTokenConfig` (`{mount}/config`). The token is write-only: sent on
 * create and when its value changed, never otherwise (the service keeps the one it has).
 */
export const platformTokenConfigHandler: ResourceHandler = mountSettingsHandler({
  schema: PLATFORM_TOKEN_CONFIG,
  suffix: 'config',
  example: 'platform/config',
  resendWriteOnly: 'when-changed',
  permissions: (s) => [policyPath(`${seg(s.mount)}/config`, 'read', 'update', 'delete')],
  api: {
    read: (ctx, mount) => client(ctx).readConfig(mount),
    write: (ctx, mount, body) => client(ctx).writeConfig(mount, body as PlatformTokenConfigInput),
    delete: (ctx, mount) => client(ctx).deleteConfig(mount),
  },
});
