import { SERVICE_ROUTER as ENTRY_KIND } from '../compiler/entries';
import { DEFAULTS_AND_RESOLVER_KINDS, entrySchema, OPTIONAL_STRING } from './config-entry.schema';

/** `mesh.ServiceRouter`: the `service-router` configuration entry; `RequestTimeout` is a Go duration in the mesh's form. */
export const SERVICE_ROUTER = entrySchema('mesh.ServiceRouter', ENTRY_KIND, {
  routes: {
    type: 'object-list', default: [],
    fields: {
      match: {
        type: 'object', default: null,
        fields: {
          http: {
            type: 'object', wire: 'HTTP', default: null,
            fields: {
              pathPrefix: OPTIONAL_STRING,
              pathExact: OPTIONAL_STRING,
              header: {
                type: 'object-list', default: [],
                fields: {
                  name: { type: 'string', required: true, default: '' },
                  exact: OPTIONAL_STRING,
                  present: { type: 'boolean', default: false },
                  prefix: OPTIONAL_STRING,
                  suffix: OPTIONAL_STRING,
                },
              },
            },
          },
        },
      },
      destination: {
        type: 'object', default: null,
        fields: {
          service: OPTIONAL_STRING,
          serviceSubset: OPTIONAL_STRING,
          namespace: OPTIONAL_STRING,
          prefixRewrite: OPTIONAL_STRING,
          requestTimeout: { type: 'string', default: '0s' },
          numRetries: { type: 'integer', min: 0, default: 0 },
          retryOnConnectFailure: { type: 'boolean', default: false },
          // HTTP status codes: whole numbers the mesh decodes (a list of numbers is free-form JSON to the schema).
          retryOnStatusCodes: { type: 'json', default: [] },
        },
      },
    },
  },
}, { orderedAfter: DEFAULTS_AND_RESOLVER_KINDS });
