import { SERVICE_INTENTIONS as ENTRY_KIND } from '../compiler/entries';
import { DEFAULTS_KINDS, entrySchema, OPTIONAL_STRING } from './config-entry.schema';
import { HTTP_METHODS } from '../compiler/validate';

/** Actions of an intention (`IntentionAction`). */
export const INTENTION_ACTIONS = ['allow', 'deny'] as const;

/**
 * `mesh.ServiceIntentions`: the `service-intentions` configuration entry. The server ranks the
 * sources (exact names before `*`) and fills in each source's `Precedence` and `Type`; the construct
 * orders them the same way, and leaves the server-filled fields out.
 */
export const SERVICE_INTENTIONS = entrySchema('mesh.ServiceIntentions', ENTRY_KIND, {
  sources: {
    type: 'object-list', required: true,
    fields: {
      name: { type: 'string', required: true },
      action: { ...OPTIONAL_STRING, oneOf: INTENTION_ACTIONS },
      description: OPTIONAL_STRING,
      permissions: {
        type: 'object-list', default: [],
        fields: {
          action: { type: 'string', required: true, oneOf: INTENTION_ACTIONS },
          http: {
            type: 'object', wire: 'HTTP', default: null,
            fields: {
              pathExact: OPTIONAL_STRING,
              pathPrefix: OPTIONAL_STRING,
              pathRegex: OPTIONAL_STRING,
              methods: { type: 'string-list', default: [], oneOf: HTTP_METHODS },
              header: {
                type: 'object-list', default: [],
                fields: {
                  name: { type: 'string', required: true },
                  present: { type: 'boolean', default: false },
                  exact: OPTIONAL_STRING,
                  prefix: OPTIONAL_STRING,
                  suffix: OPTIONAL_STRING,
                  regex: OPTIONAL_STRING,
                  invert: { type: 'boolean', default: false },
                },
              },
            },
          },
        },
      },
    },
  },
}, { orderedAfter: DEFAULTS_KINDS });
