import { configEntryHandler } from './config-entry.handler';

/** Lifecycle of `mesh.ServiceDefaults`: the `service-defaults` configuration entry. */
export const serviceDefaultsHandler = configEntryHandler('mesh.ServiceDefaults', 'service-defaults');
