import { configEntryHandler } from './config-entry.handler';
import { SERVICE_SPLITTER } from './service-splitter.schema';

/** Lifecycle of `mesh.ServiceSplitter`: the `service-splitter` configuration entry. */
export const serviceSplitterHandler = configEntryHandler(SERVICE_SPLITTER);
