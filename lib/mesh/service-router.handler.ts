import { configEntryHandler } from './config-entry.handler';

/** Lifecycle of `mesh.ServiceRouter`: the `service-router` configuration entry. */
export const serviceRouterHandler = configEntryHandler('mesh.ServiceRouter', 'service-router');
