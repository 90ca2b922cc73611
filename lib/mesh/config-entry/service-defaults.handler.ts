import { configEntryHandler } from './config-entry.handler';
import { SERVICE_DEFAULTS } from './service-defaults.schema';

/** Lifecycle of `mesh.ServiceDefaults`: the `service-defaults` configuration entry. */
export const serviceDefaultsHandler = configEntryHandler(SERVICE_DEFAULTS);
