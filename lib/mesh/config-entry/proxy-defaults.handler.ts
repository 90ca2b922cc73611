import { configEntryHandler } from './config-entry.handler';
import { PROXY_DEFAULTS } from './proxy-defaults.schema';

/** Lifecycle of `mesh.ProxyDefaults`: the `proxy-defaults` configuration entry. */
export const proxyDefaultsHandler = configEntryHandler(PROXY_DEFAULTS);
