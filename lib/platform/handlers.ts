/** Importing this module registers every platform handler (the CLI imports it). */
import { registerDataSource, registerResource } from '../core/engine/registry';
import { agentPoolHandler } from './agent-pool.handler';
import { agentsHandler } from './agents.handler';
import { dataRetentionPolicyHandler } from './data-retention-policy.handler';
import { moduleProducersHandler } from './module-producers.handler';
import { noCodeModuleHandler } from './no-code-module.handler';
import { noCodeWorkspaceHandler } from './no-code-workspace.handler';
import { oauthClientHandler } from './oauth-client.handler';
import { organizationEntitlementsHandler } from './organization-entitlements.handler';
import { organizationHandler } from './organization.handler';

registerResource(organizationHandler);
registerResource(oauthClientHandler);
registerResource(agentPoolHandler);
registerResource(noCodeModuleHandler);
registerResource(noCodeWorkspaceHandler);
registerResource(dataRetentionPolicyHandler);
registerDataSource(organizationEntitlementsHandler);
registerDataSource(agentsHandler);
registerDataSource(moduleProducersHandler);
