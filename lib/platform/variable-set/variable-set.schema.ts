import { KindSchema } from '../../core/schema';
import { ORGANIZATION_FIELD } from '../shared/references';

/**
 * `platform.VariableSet`: the real platform's create/update body (go-tfe's `VariableSetCreateOptions`),
 * camelCased, and the workspaces and projects it applies to (kept in sync by their relationship
 * endpoints). Its variables are not managed here.
 */
export const VARIABLE_SET: KindSchema = {
  kind: 'platform.VariableSet',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: ORGANIZATION_FIELD,
    name: { type: 'string', required: true, pattern: /^[^\s].{0,127}$/, patternRule: 'must be 1 to 128 characters, not starting with a space' },
    description: { type: 'string', default: '' },
    global: { type: 'boolean', default: false },
    priority: { type: 'boolean', default: false },
    workspaces: { type: 'string-set', default: [], pattern: /^ws-/, patternRule: 'is not a workspace id (ws-…)' },
    projects: { type: 'string-set', default: [], pattern: /^prj-/, patternRule: 'is not a project id (prj-…)' },
  },
  outputs: {
    id: { type: 'string' },
  },
};
