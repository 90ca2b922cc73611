import { KindSchema } from '../../core/schema';
import { VARIABLE_CATEGORIES } from '../shared/value-sets';

/**
 * `platform.Variable`: the real platform's variable body (go-tfe's `VariableCreateOptions`, and
 * `VariableSetVariableCreateOptions` for a set's), camelCased, in the workspace or variable set given by the request path. A sensitive variable's value
 * (`sensitiveValue`) is write-only: never read back, compared by its HMAC; making a variable
 * sensitive or not replaces it (the platform never makes a sensitive variable plain again).
 */
export const VARIABLE: KindSchema = {
  kind: 'platform.Variable',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    // In the request path: a workspace's variable, or a variable set's own (`/varsets/<id>/relationships/vars`).
    workspace: { type: 'string', replace: true, local: true, identity: true, pattern: /^ws-/, patternRule: 'is not a workspace id (ws-…)' },
    variableSet: { type: 'string', replace: true, local: true, identity: true, pattern: /^varset-/, patternRule: 'is not a variable set id (varset-…)' },
    key: { type: 'string', required: true, pattern: /^[A-Za-z0-9_.-]{1,128}$/, patternRule: "may contain only letters, numbers, '_', '.' and '-' (at most 128)" },
    value: { type: 'string', default: '' },
    // The same `value` attribute of the body, for a sensitive variable.
    sensitiveValue: { type: 'secret', default: null, writeOnly: true, sensitive: true, wire: 'value' },
    description: { type: 'string', default: '' },
    category: { type: 'string', oneOf: VARIABLE_CATEGORIES, default: 'engine' },
    hcl: { type: 'boolean', default: false },
    sensitive: { type: 'boolean', replace: true, default: (props: Record<string, any>) => props.sensitiveValue !== undefined && props.sensitiveValue !== null },
  },
  outputs: {
    id: { type: 'string' },
  },
};
