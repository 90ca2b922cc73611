export * from './core';
export * as platform from './platform';
export * as secrets from './secrets';
export * as mesh from './mesh';
