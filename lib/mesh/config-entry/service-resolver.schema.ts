import { SERVICE_RESOLVER as ENTRY_KIND } from '../compiler/entries';
import { DEFAULTS_KINDS, entrySchema, OPTIONAL_STRING } from './config-entry.schema';

/** A service, subset and namespace a resolver sends traffic to (the same names in a redirect and a failover). */
const TARGET = { service: OPTIONAL_STRING, serviceSubset: OPTIONAL_STRING, namespace: OPTIONAL_STRING };

/**
 * `mesh.ServiceResolver`: the `service-resolver` configuration entry. `ConnectTimeout` is a Go
 * duration, kept in the mesh's own form (`1m0s`: `60s` and `1m` are the same spec); `0s` is the mesh's 5s.
 */
export const SERVICE_RESOLVER = entrySchema('mesh.ServiceResolver', ENTRY_KIND, {
  connectTimeout: { type: 'string', default: '0s' },
  defaultSubset: OPTIONAL_STRING,
  subsets: {
    type: 'object-map', default: {},
    fields: { filter: OPTIONAL_STRING, onlyPassing: { type: 'boolean', default: false } },
  },
  redirect: { type: 'object', default: null, fields: { ...TARGET, datacenter: OPTIONAL_STRING } },
  failover: { type: 'object-map', default: {}, fields: { ...TARGET, datacenters: { type: 'string-list', default: [] } } },
}, { orderedAfter: DEFAULTS_KINDS });
