export * from './reconcile';
export * from './restrict';
export * from './stack-order';
export { prepareOtherStacks, readByOtherStacks } from './other-stack-reads';
export { assertIdentitiesFree } from './ownership-check';
