export * from './kind-schema';
export * from './render-spec';
export * from './validate-props';
export * from './wire';
export * from './handler-metadata';
