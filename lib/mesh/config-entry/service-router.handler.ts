import { configEntryHandler } from './config-entry.handler';
import { SERVICE_ROUTER } from './service-router.schema';

/** Lifecycle of `mesh.ServiceRouter`: the `service-router` configuration entry. */
export const serviceRouterHandler = configEntryHandler(SERVICE_ROUTER);
