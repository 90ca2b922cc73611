/** Importing this module registers every secrets handler (the CLI imports it). */
import { registerResource } from '../core/engine/registry';
import { kvEngineConfigHandler } from './kv-engine-config.handler';
import { kvSecretHandler } from './kv-secret.handler';

registerResource(kvSecretHandler);
registerResource(kvEngineConfigHandler);
