import { DomainKinds } from '../core/engine/registry';
import { PLATFORM_API_PROFILE } from './api-profile';
import { agentPoolHandler } from './agent-pool/agent-pool.handler';
import { agentsHandler } from './agent-pool/agents.handler';
import { dataRetentionPolicyHandler } from './organization/data-retention-policy.handler';
import { moduleProducersHandler } from './no-code/module-producers.handler';
import { noCodeModuleHandler } from './no-code/no-code-module.handler';
import { noCodeWorkspaceHandler } from './no-code/no-code-workspace.handler';
import { oauthClientHandler } from './oauth-client/oauth-client.handler';
import { organizationEntitlementsHandler } from './organization/organization-entitlements.handler';
import { organizationHandler } from './organization/organization.handler';
import { platformPreflight } from './preflight';
import { projectHandler } from './project/project.handler';
import { teamAccessHandler } from './team/team-access.handler';
import { teamHandler } from './team/team.handler';
import { variableHandler } from './variable/variable.handler';
import { variableSetHandler } from './variable-set/variable-set.handler';
import { workspaceHandler } from './workspace/workspace.handler';

/** The platform API's kinds: each resource and data source handler (each declares its kind once, in its schema). */
export const PLATFORM_KINDS: DomainKinds = {
  resources: [organizationHandler, oauthClientHandler, agentPoolHandler, noCodeModuleHandler, noCodeWorkspaceHandler, dataRetentionPolicyHandler,
    projectHandler, workspaceHandler, variableHandler, teamHandler, teamAccessHandler, variableSetHandler],
  dataSources: [organizationEntitlementsHandler, agentsHandler, moduleProducersHandler],
  planHooks: [],
  preflight: { api: 'platform', check: platformPreflight },
  apiProfile: PLATFORM_API_PROFILE,
};
