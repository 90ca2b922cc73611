import { SERVICE_SPLITTER as ENTRY_KIND } from '../compiler/entries';
import { DEFAULTS_AND_RESOLVER_KINDS, entrySchema, OPTIONAL_STRING } from './config-entry.schema';

/** `mesh.ServiceSplitter`: the `service-splitter` configuration entry. */
export const SERVICE_SPLITTER = entrySchema('mesh.ServiceSplitter', ENTRY_KIND, {
  splits: {
    type: 'object-list', required: true,
    fields: { weight: { type: 'number', required: true }, service: OPTIONAL_STRING, serviceSubset: OPTIONAL_STRING, namespace: OPTIONAL_STRING },
  },
}, { orderedAfter: DEFAULTS_AND_RESOLVER_KINDS });
