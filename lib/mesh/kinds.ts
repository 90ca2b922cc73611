import { DomainKinds } from '../core/engine/registry';
import { MESH_API_PROFILE } from './api-profile';
import { aclPolicyHandler } from './acl/acl-policy.handler';
import { aclRoleHandler } from './acl/acl-role.handler';
import { aclTokenHandler } from './acl/acl-token.handler';
import { discoveryChainHandler } from './discovery-chain/discovery-chain.handler';
import { meshPreflight } from './preflight';
import { proxyDefaultsHandler } from './config-entry/proxy-defaults.handler';
import { serviceDefaultsHandler } from './config-entry/service-defaults.handler';
import { serviceResolverHandler } from './config-entry/service-resolver.handler';
import { serviceIntentionsHandler } from './config-entry/service-intentions.handler';
import { serviceRouterHandler } from './config-entry/service-router.handler';
import { serviceSplitterHandler } from './config-entry/service-splitter.handler';
import { subsetRenameHook } from './traffic/subset-rename';
import { intentionsDiffHook } from './traffic/intentions-diff';
import { trafficDiffHook } from './traffic/traffic-diff';

/** The mesh API's kinds: each resource and data source handler (each declares its kind once, in its schema), the subset-rename check and the traffic plan hook. */
export const MESH_KINDS: DomainKinds = {
  resources: [serviceDefaultsHandler, proxyDefaultsHandler, serviceResolverHandler, serviceSplitterHandler, serviceRouterHandler,
    serviceIntentionsHandler, aclPolicyHandler, aclRoleHandler, aclTokenHandler],
  dataSources: [discoveryChainHandler],
  planHooks: [subsetRenameHook, trafficDiffHook, intentionsDiffHook],
  preflight: { api: 'mesh', check: meshPreflight },
  apiProfile: MESH_API_PROFILE,
};
