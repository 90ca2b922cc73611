import { KindSchema } from '../../core/schema';
import { NAME_RULE, ORGANIZATION_FIELD } from '../shared/references';
import { VARIABLE_CATEGORIES } from '../shared/value-sets';

const DURATION_RULE = 'is not a duration (use e.g. "30s", "10m" or a number of seconds; a timeout above zero)';

/**
 * `platform.NoCodeWorkspace`: the spec's workspace creation body, camelCased, and how converge runs
 * upgrades. The module is in the request path; the module version, the upgrade's timeout and poll
 * interval are converge's (no API body holds them).
 */
export const NO_CODE_WORKSPACE: KindSchema = {
  kind: 'platform.NoCodeWorkspace',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: ORGANIZATION_FIELD,
    noCodeModuleId: { type: 'string', required: true, replace: true, local: true, pattern: /^nocode-/, patternRule: 'is not a no-code module id (nocode-…)' },
    projectId: { type: 'string', required: true, replace: true, wire: 'project', pattern: /^prj-/, patternRule: 'is not a project id (prj-…)' },
    name: { type: 'string', required: true, ...NAME_RULE },
    description: { type: 'string', default: '' },
    autoApply: { type: 'boolean', default: false, wire: 'auto_apply' },
    variables: {
      type: 'object-list',
      default: [],
      wire: 'vars',
      fields: {
        key: { type: 'string', required: true, pattern: /./, patternRule: 'must not be empty' },
        // A SecretValue for a sensitive variable (the construct's `sensitiveValue`).
        value: { type: 'json', default: '', mayHoldSecret: true },
        category: { type: 'string', oneOf: VARIABLE_CATEGORIES, default: 'engine' },
        hcl: { type: 'boolean', default: false },
        sensitive: { type: 'boolean', default: false },
        description: { type: 'string', default: '' },
      },
    },
    // Unset: not managed (not in the spec, never compared).
    moduleVersion: { type: 'string', local: true },
    // Durations kept as written (strings: the handler reads them with durationSeconds).
    upgradeTimeout: { type: 'string', default: '10m', local: true, pattern: /^(?=.*[1-9])((\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d))+|\d+)$/, patternRule: DURATION_RULE },
    upgradePollInterval: { type: 'string', default: '2s', local: true, pattern: /^((\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d))+|\d+)$/, patternRule: DURATION_RULE },
  },
  outputs: {
    id: { type: 'string' },
    moduleVersion: { type: 'string' },
    noCodeModuleVersionId: { type: 'string' },
  },
};
