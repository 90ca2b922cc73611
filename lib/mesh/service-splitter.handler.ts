import { configEntryHandler } from './config-entry.handler';

/** Lifecycle of `mesh.ServiceSplitter`: the `service-splitter` configuration entry. */
export const serviceSplitterHandler = configEntryHandler('mesh.ServiceSplitter', 'service-splitter');
