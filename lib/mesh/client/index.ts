export * from './mesh-client';
export * from './acl-policies';
export * from './acl-roles';
export * from './acl-tokens';
