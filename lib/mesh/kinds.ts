import { DomainKinds } from '../core/engine/registry';
import { MESH_API_PROFILE } from './api-profile';
import { aclPolicyHandler } from './acl-policy/acl-policy.handler';
import { aclRoleHandler } from './acl-role/acl-role.handler';
import { aclTokenHandler } from './acl-token/acl-token.handler';
import { discoveryChainHandler } from './discovery-chain/discovery-chain.handler';
import { meshPreflight } from './preflight';
import { proxyDefaultsHandler } from './proxy-defaults/proxy-defaults.handler';
import { serviceDefaultsHandler } from './service-defaults/service-defaults.handler';
import { serviceResolverHandler } from './service-resolver/service-resolver.handler';
import { serviceIntentionsHandler } from './service-intentions/service-intentions.handler';
import { serviceRouterHandler } from './service-router/service-router.handler';
import { serviceSplitterHandler } from './service-splitter/service-splitter.handler';
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
