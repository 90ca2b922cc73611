// The jsii surface of the engine: what an app author uses. The engine's async API
// (planner, applier, clients, emulator) is not exported here; the CLI reaches it.
export * from './constructs/terraform-bridge';
export * from './constructs/removal-policy';
export * from './constructs/secret-value';
export * from './constructs/api-provider';
export * from './constructs/resource';
export * from './constructs/testing';
