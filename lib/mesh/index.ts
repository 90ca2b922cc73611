export * from './provider';
export * from './mesh-types';
export * from './config-entry';
export * from './service-defaults';
export * from './proxy-defaults';
export * from './service-resolver';
export * from './service-splitter';
export * from './service-router';
export * from './discovery-chain';
// The discovery-chain compiler, for TypeScript users (jsii leaves functions out of other languages' bindings).
export { compileDiscoveryChain } from './compiler/compile';
