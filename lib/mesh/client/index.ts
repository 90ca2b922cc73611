export * from './mesh-client';
export * from './acl-policies';
