export * from './provider';
export * from './kv-secret';
export * from './kv-engine-config';
