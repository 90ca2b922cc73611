import { PROXY_DEFAULTS as ENTRY_KIND } from '../compiler/entries';
import { ENTRY_FIELDS, entrySchema, MESH_GATEWAY } from './config-entry.schema';
import { MESH_PROTOCOLS } from '../shared/mesh-fields';

/** `mesh.ProxyDefaults`: the `proxy-defaults` configuration entry, always `global` in the `default` namespace. */
export const PROXY_DEFAULTS = entrySchema('mesh.ProxyDefaults', ENTRY_KIND, {
  config: { type: 'json', default: {} },
  meshGateway: MESH_GATEWAY,
  // Shorthand for `config.protocol`: the construct folds it into `config`; never sent on its own.
  protocol: { type: 'string', oneOf: MESH_PROTOCOLS, local: true },
}, {
  common: { ...ENTRY_FIELDS, name: { type: 'string', default: 'global', replace: true } },
});
