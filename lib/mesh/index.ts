export * from './provider';
export * from './config-entry/mesh-types';
export * from './config-entry/config-entry';
export * from './service-defaults/service-defaults';
export * from './proxy-defaults/proxy-defaults';
export * from './service-resolver/service-resolver';
export * from './service-splitter/service-splitter';
export * from './service-router/service-router';
export * from './service-intentions/intention-types';
export * from './service-intentions/service-intentions';
export * from './discovery-chain/discovery-chain';
export * from './acl-policy/acl-policy';
export * from './acl-role/acl-identities';
export * from './acl-role/acl-role';
export * from './acl-token/acl-token';
// The discovery-chain compiler, for TypeScript users (jsii leaves functions out of other languages' bindings).
export { compileDiscoveryChain } from './compiler/compile';
