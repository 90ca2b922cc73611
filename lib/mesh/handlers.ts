/** Importing this module registers every mesh handler and the traffic plan hook (the CLI imports it). */
import { registerDataSource, registerPlanHook, registerResource } from '../core/engine/registry';
import { discoveryChainHandler } from './discovery-chain.handler';
import { proxyDefaultsHandler } from './proxy-defaults.handler';
import { serviceDefaultsHandler } from './service-defaults.handler';
import { serviceResolverHandler } from './service-resolver.handler';
import { serviceRouterHandler } from './service-router.handler';
import { serviceSplitterHandler } from './service-splitter.handler';
import { trafficDiffHook } from './traffic-diff';

registerResource(serviceDefaultsHandler);
registerResource(proxyDefaultsHandler);
registerResource(serviceResolverHandler);
registerResource(serviceSplitterHandler);
registerResource(serviceRouterHandler);
registerDataSource(discoveryChainHandler);
registerPlanHook(trafficDiffHook);
