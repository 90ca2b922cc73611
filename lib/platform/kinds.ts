import { DomainKinds } from '../core/engine/registry';
import { PLATFORM_API_PROFILE } from './api-profile';
import { agentPoolHandler } from './agent-pool/agent-pool.handler';
import { agentsHandler } from './agent-pool/agents.handler';
import { PlatformDataSourceHandler, PlatformResourceHandler } from './shared/kind-permissions';
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

/** The platform's kinds, each handler with its `permissions`. */
export interface PlatformKinds extends DomainKinds {
  readonly resources: readonly PlatformResourceHandler[];
  readonly dataSources: readonly PlatformDataSourceHandler[];
}

const resources: readonly PlatformResourceHandler[] = [organizationHandler, oauthClientHandler, agentPoolHandler, noCodeModuleHandler, noCodeWorkspaceHandler, dataRetentionPolicyHandler,
    projectHandler, workspaceHandler, variableHandler, teamHandler, teamAccessHandler, variableSetHandler];
const dataSources: readonly PlatformDataSourceHandler[] = [organizationEntitlementsHandler, agentsHandler, moduleProducersHandler];

/**
 * The platform API's kinds: each resource and data source handler (each declares its kind once, in its schema, and
 * what the platform token needs for it, `permissions`, which `converge policy` and the preflight collect from here).
 */
export const PLATFORM_KINDS: PlatformKinds = {
  resources,
  dataSources,
  planHooks: [],
  preflight: { api: 'platform', check: platformPreflight((kind) => resources.find((h) => h.kind === kind)?.permissions) },
  apiProfile: PLATFORM_API_PROFILE,
};
