/** Importing this module registers every secrets handler (the CLI imports it). */
import { registerDataSource, registerResource } from '../core/engine/registry';
import { kvSecretDataHandler, kvSecretSubkeysHandler, totpKeyInfoHandler } from './data-sources.handler';
import { meshTokenConfigHandler } from './mesh-token-config.handler';
import { meshTokenRoleHandler } from './mesh-token-role.handler';
import { platformTokenConfigHandler } from './platform-token-config.handler';
import { platformTokenRoleHandler } from './platform-token-role.handler';
import { pushMfaMethodHandler } from './push-mfa-method.handler';
import { totpKeyHandler } from './totp-key.handler';
import { kvEngineConfigHandler } from './kv-engine-config.handler';
import { kvSecretHandler } from './kv-secret.handler';

registerResource(kvSecretHandler);
registerResource(kvEngineConfigHandler);
registerResource(totpKeyHandler);
registerResource(platformTokenConfigHandler);
registerResource(platformTokenRoleHandler);
registerResource(meshTokenConfigHandler);
registerResource(meshTokenRoleHandler);
registerResource(pushMfaMethodHandler);
registerDataSource(kvSecretDataHandler);
registerDataSource(kvSecretSubkeysHandler);
registerDataSource(totpKeyInfoHandler);
