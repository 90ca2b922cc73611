export * from './mesh-client';
export * from '../acl/acl-policy-client';
export * from '../acl/acl-role-client';
export * from '../acl/acl-token-client';
export * from '../config-entry/config-entry-client';
export * from '../discovery-chain/discovery-chain-client';
