// validate-props is left out: it checks construct props (cdktf tokens), and the engine side (the CLI, which a CDK Terrain app runs without cdktf) imports this index.

export * from './kind-schema';
export * from './render-spec';
export * from './wire';
export * from './handler-metadata';
