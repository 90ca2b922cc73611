export * from './provider';
export * from './shared/mesh-types';
export * from './config-entry/config-entry';
export * from './config-entry/service-defaults';
export * from './config-entry/proxy-defaults';
export * from './config-entry/service-resolver';
export * from './config-entry/service-splitter';
export * from './config-entry/service-router';
export * from './config-entry/intention-types';
export * from './config-entry/service-intentions';
export * from './discovery-chain/discovery-chain';
export * from './acl/acl-policy';
export * from './acl/acl-identities';
export * from './acl/acl-role';
export * from './acl/acl-token';
// The discovery-chain compiler, for TypeScript users (jsii leaves functions out of other languages' bindings).
export { compileDiscoveryChain } from './compiler/compile';
