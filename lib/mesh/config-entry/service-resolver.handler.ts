import { configEntryHandler } from './config-entry.handler';
import { SERVICE_RESOLVER } from './service-resolver.schema';

/** Lifecycle of `mesh.ServiceResolver`: the `service-resolver` configuration entry. */
export const serviceResolverHandler = configEntryHandler(SERVICE_RESOLVER);
