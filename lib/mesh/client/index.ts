export * from './mesh-client';
