// The discovery-chain compiler: pure functions, no I/O. Not part of the jsii surface.
export * from './chain';
export * from './compile';
export * from './duration';
export * from './entries';
export { checkFilterSyntax } from './filter';
export * from './graph';
export { customizationHash } from './hash';
export * from './validate';
export * from './intentions';
