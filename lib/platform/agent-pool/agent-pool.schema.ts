import { KindSchema } from '../../core/schema';
import { NAME_RULE, ORGANIZATION_FIELD } from '../shared/references';

/** `platform.AgentPool`: the spec's create/update body, camelCased; renamed in place, moved by replacement. */
export const AGENT_POOL: KindSchema = {
  kind: 'platform.AgentPool',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: ORGANIZATION_FIELD,
    name: { type: 'string', required: true, ...NAME_RULE },
    organizationScoped: { type: 'boolean', default: true },
    allowedWorkspaces: { type: 'string-set', default: [], pattern: /^ws-/, patternRule: 'is not a workspace id (ws-…)' },
    // Not a setting the API holds but an action on every apply (the handler reads it as done or to do).
    deleteInactiveAgents: { type: 'boolean', default: false, local: true },
  },
  outputs: {
    id: { type: 'string' },
    name: { type: 'string' },
    agentCount: { type: 'number' },
  },
};
