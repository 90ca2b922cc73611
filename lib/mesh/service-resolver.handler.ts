import { configEntryHandler } from './config-entry.handler';

/** Lifecycle of `mesh.ServiceResolver`: the `service-resolver` configuration entry. */
export const serviceResolverHandler = configEntryHandler('mesh.ServiceResolver', 'service-resolver');
