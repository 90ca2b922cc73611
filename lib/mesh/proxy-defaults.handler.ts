import { configEntryHandler } from './config-entry.handler';

/** Lifecycle of `mesh.ProxyDefaults`: the `proxy-defaults` configuration entry. */
export const proxyDefaultsHandler = configEntryHandler('mesh.ProxyDefaults', 'proxy-defaults');
