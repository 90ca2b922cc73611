export * from './provider';
export * from './organization';
export * from './organization-entitlements';
