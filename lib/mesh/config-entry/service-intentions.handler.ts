import { configEntryHandler } from './config-entry.handler';
import { SERVICE_INTENTIONS } from './service-intentions.schema';

/** Lifecycle of `mesh.ServiceIntentions`: the `service-intentions` configuration entry. */
export const serviceIntentionsHandler = configEntryHandler(SERVICE_INTENTIONS);
