import { SERVICE_DEFAULTS as ENTRY_KIND } from '../compiler/entries';
import { entrySchema, MESH_GATEWAY, OPTIONAL_STRING } from './config-entry.schema';
import { MESH_PROTOCOLS } from '../shared/mesh-fields';

/** `mesh.ServiceDefaults`: the `service-defaults` configuration entry. */
export const SERVICE_DEFAULTS = entrySchema('mesh.ServiceDefaults', ENTRY_KIND, {
  protocol: { type: 'string', oneOf: MESH_PROTOCOLS, default: 'tcp' },
  meshGateway: MESH_GATEWAY,
  externalSni: { ...OPTIONAL_STRING, wire: 'ExternalSNI' },
});
