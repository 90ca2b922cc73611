import { KindSchema } from '../../core/schema';
import { NAME_RULE, ORGANIZATION_FIELD } from '../shared/references';

/**
 * `platform.NoCodeModule`: the spec's enable/update body, camelCased. The registry module is named
 * by `moduleName` and `moduleProvider` (the handler sends its id). Option sets are matched by
 * variable name (sorted by it).
 */
export const NO_CODE_MODULE: KindSchema = {
  kind: 'platform.NoCodeModule',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: ORGANIZATION_FIELD,
    moduleName: { type: 'string', required: true, local: true, ...NAME_RULE },
    moduleProvider: { type: 'string', required: true, local: true, ...NAME_RULE },
    // Unset: the server picks the latest version and converge leaves the pin alone (not in the spec, never compared).
    versionPin: { type: 'string', pattern: /./, patternRule: 'must be a version' },
    // The API's default is false; a NoCodeModule construct is there to enable no-code provisioning, so
    // converge's default is true (always sent). A function keeps it out of the API-default comparison.
    enabled: { type: 'boolean', default: () => true },
    variableOptions: {
      type: 'object-list',
      default: [],
      fields: {
        variableName: { type: 'string', required: true, pattern: /./, patternRule: 'must not be empty' },
        variableType: { type: 'string', required: true, pattern: /./, patternRule: 'must not be empty' },
        options: { type: 'json', required: true },
      },
    },
  },
  outputs: {
    id: { type: 'string' },
    versionPin: { type: 'string' },
    registryModuleId: { type: 'string' },
  },
  unmanaged: {
    'registry-module': 'the id of the registry module that moduleName and moduleProvider name (the handler looks it up)',
  },
};
