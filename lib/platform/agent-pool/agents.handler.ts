import { ApiError } from '../../core/http/api-error';
import { dataSourceMetadata } from '../../core/schema';
import { platformClient } from '../shared/handler-util';
import { AGENTS } from './agents.schema';
import { PlatformDataSourceHandler } from '../shared/kind-permissions';

/** `platform.Agents`: the pool's agents, filtered by last ping (on the server) and status (here: the API has no status filter). */
export const agentsHandler: PlatformDataSourceHandler = {
  ...dataSourceMetadata(AGENTS),
  permissions: {
    needs: () => 'read the agent pool (the agents entitlement)',
  },
  async read(ctx, spec): Promise<Record<string, unknown>> {
    const api = platformClient(ctx).agentPools;
    const poolId = String(spec.agentPoolId);
    if (!(await api.show(poolId))) {
      throw new ApiError(404, [`agent pool "${poolId}" not found or not visible to the token (is the agents entitlement on?)`], 'GET',
        `/api/v2/agent-pools/${poolId}/agents`, 'platform', ctx.address, 'PLATFORM_TOKEN');
    }
    const statuses = (spec.statuses ?? []) as string[];
    const agents: Record<string, unknown>[] = [];
    for await (const a of api.iterateAgents(poolId, { lastPingSince: (spec.lastPingSince as string | null) ?? undefined })) {
      if (statuses.length && !statuses.includes(a.status)) continue;
      agents.push({ id: a.id, name: a.name, status: a.status, ipAddress: a.ipAddress, lastPingAt: a.lastPingAt });
    }
    return { agents, ids: agents.map((a) => a.id), count: agents.length };
  },
  // Agents ping every few seconds: a ping between plan and apply changes no agent.
  stableForm: (outputs) => ({ ...outputs, agents: ((outputs.agents ?? []) as Record<string, unknown>[]).map(({ lastPingAt: _p, ...a }) => a) }),
};
