import { KindSchema } from '../../core/schema';

/** Agent statuses (the spec's "values seen"). */
export const AGENT_STATUSES = ['idle', 'busy', 'exited', 'errored', 'unknown'] as const;

/** `platform.Agents`: the agents of a pool, filtered by last ping (on the server) and status (here: the API has no status filter). */
export const AGENTS: KindSchema = {
  kind: 'platform.Agents',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    agentPoolId: { type: 'string', required: true, pattern: /^apool-/, patternRule: 'is not an agent pool id (apool-…)' },
    statuses: { type: 'string-set', default: [], oneOf: AGENT_STATUSES },
    lastPingSince: { type: 'string', default: null, pattern: /^\d{4}-\d{2}-\d{2}/, patternRule: "is not an ISO 8601 timestamp (such as 2024-05-01T00:00:00Z)" },
  },
  outputs: {
    /** Each agent: `{ id, name, status, ipAddress, lastPingAt }`. */
    agents: { type: 'json' },
    ids: { type: 'json' },
    count: { type: 'number' },
  },
};
