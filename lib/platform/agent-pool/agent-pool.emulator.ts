import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { canDo, PlatformContext, visibleOrganization, visibleOrganizationById } from '../emulator/context';
import {
  ApiFailure, badRequest, BASE, doc, errors, includes, listDocument, notFound, pageRequest, readData, relationshipData,
  unprocessable,
} from '../emulator/jsonapi';
import { AgentPoolRecord, AgentRecord, newId, OrganizationRecord } from '../emulator/state';

/** The 412 detail of the real platform when an agent may not be deleted. */
export const AGENT_NOT_DELETABLE = 'Agent is not deletable. Agents must have a status of `unknown`, `errored`, or `exited` before being deleted.';
export const DELETABLE_STATUSES = ['unknown', 'errored', 'exited'];
export const AGENT_STATUSES = ['idle', 'busy', 'exited', 'errored', 'unknown'];
const NAME_RE = /^[A-Za-z0-9_-]+$/;
/** Agents are a paid feature: without this entitlement every agent endpoint answers 404. */
const ENTITLEMENT = 'agents';

export function registerAgentPoolRoutes(router: Router<PlatformContext>): void {
  router.add('GET', `${BASE}/organizations/:org/agent-pools`, listPools);
  router.add('POST', `${BASE}/organizations/:org/agent-pools`, createPool);
  router.add('GET', `${BASE}/agent-pools/:id`, showPool);
  router.add('PATCH', `${BASE}/agent-pools/:id`, updatePool);
  router.add('DELETE', `${BASE}/agent-pools/:id`, (_req, p, ctx) => {
    const { pool, org } = managedPool(ctx, p.id);
    if (org.attributes['default-agent-pool-id'] === pool.id) {
      return unprocessable('The agent pool is the organization\'s default agent pool; change default-execution-mode first');
    }
    delete ctx.state.agentPools[pool.id];
    for (const a of Object.values(ctx.state.agents)) if (a.poolId === pool.id) delete ctx.state.agents[a.id];
    for (const w of Object.values(ctx.state.workspaces)) if (w.agentPoolId === pool.id) w.agentPoolId = null;
    return { status: 204 };
  });
  router.add('GET', `${BASE}/agent-pools/:id/agents`, listAgents);
  router.add('GET', `${BASE}/agents/:id`, (_req, p, ctx) => {
    const agent = visibleAgent(ctx, p.id);
    return agent ? doc(200, { data: agentResource(agent) }) : notFound();
  });
  router.add('DELETE', `${BASE}/agents/:id`, (_req, p, ctx) => {
    const agent = visibleAgent(ctx, p.id);
    const pool = agent && ctx.state.agentPools[agent.poolId];
    if (!agent || !canDo(ctx, ctx.state.organizations[pool!.organizationId], 'manage-agent-pools')) return notFound();
    if (!DELETABLE_STATUSES.includes(agent.status)) {
      return errors(412, { status: '412', title: 'precondition failed', detail: AGENT_NOT_DELETABLE });
    }
    delete ctx.state.agents[agent.id];
    return { status: 204 };
  });
}

function orgOf(ctx: PlatformContext, name: string): OrganizationRecord | undefined {
  const org = visibleOrganization(ctx, name);
  return org && org.entitlements[ENTITLEMENT] === true ? org : undefined;
}

function visiblePool(ctx: PlatformContext, id: string): { pool: AgentPoolRecord; org: OrganizationRecord } | undefined {
  const pool = ctx.state.agentPools[id];
  const org = pool && visibleOrganizationById(ctx, pool.organizationId, ENTITLEMENT);
  return pool && org ? { pool, org } : undefined;
}

function managedPool(ctx: PlatformContext, id: string): { pool: AgentPoolRecord; org: OrganizationRecord } {
  const found = visiblePool(ctx, id);
  if (!found || !canDo(ctx, found.org, 'manage-agent-pools')) throw new ApiFailure(notFound());
  return found;
}

function visibleAgent(ctx: PlatformContext, id: string): AgentRecord | undefined {
  const agent = ctx.state.agents[id];
  return agent && visiblePool(ctx, agent.poolId) ? agent : undefined;
}

function listPools(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const org = orgOf(ctx, p.org);
  if (!org) return notFound();
  const all = Object.values(ctx.state.agentPools).filter((x) => x.organizationId === org.externalId);
  const q = req.query.get('q');
  const wsName = req.query.get('filter[allowed_workspaces][name]');
  let pools = all.filter((x) => q === null || x.name.toLowerCase().includes(q.toLowerCase()));
  if (wsName !== null) {
    const ws = Object.values(ctx.state.workspaces).find((w) => w.organizationId === org.externalId && w.name === wsName);
    pools = pools.filter((x) => x.organizationScoped || (ws !== undefined && (x.allowedWorkspaces ?? []).includes(ws.id)));
  }
  const sort = req.query.get('sort') ?? 'name';
  const key = sort.replace(/^-/, '');
  if (key !== 'name' && key !== 'created-at') return badRequest('sort must be name or created-at, optionally prefixed with -');
  pools.sort((a, b) => (key === 'name' ? a.name.localeCompare(b.name) : a.createdAt.localeCompare(b.createdAt)));
  if (sort.startsWith('-')) pools.reverse();
  return listDocument(pools, pageRequest(req.query, false), req, (x) => poolResource(x, ctx),
    { 'status-counts': { total: all.length, matching: pools.length } });
}

function showPool(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const found = visiblePool(ctx, p.id);
  if (!found) return notFound();
  const wanted = includes(req.query);
  const bad = wanted.filter((i) => i !== 'workspaces');
  if (bad.length) return badRequest(`Invalid include parameter: ${bad.join(',')} (allowed: workspaces)`);
  const included = wanted.length ? usingWorkspaces(ctx, found.pool).map((w) => workspaceStub(w)) : undefined;
  return doc(200, { data: poolResource(found.pool, ctx), ...(included ? { included } : {}) });
}

function createPool(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const org = orgOf(ctx, p.org);
  if (!org || !canDo(ctx, org, 'manage-agent-pools')) return notFound();
  const { attributes, relationships } = readData(req, 'agent-pools');
  const v = validate(ctx, org, attributes, relationships, undefined);
  if (Object.values(ctx.state.agentPools).some((x) => x.organizationId === org.externalId)) {
    return unprocessable('Only one agent pool may exist per organization');
  }
  const pool: AgentPoolRecord = {
    id: newId(ctx.state, 'apool'), name: v.name, organizationId: org.externalId, createdAt: new Date().toISOString(),
    organizationScoped: v.organizationScoped, allowedWorkspaces: v.allowedWorkspaces ?? [],
  };
  ctx.state.agentPools[pool.id] = pool;
  return doc(201, { data: poolResource(pool, ctx) });
}

function updatePool(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const { pool, org } = managedPool(ctx, p.id);
  const { attributes, relationships } = readData(req, 'agent-pools');
  const v = validate(ctx, org, attributes, relationships, pool);
  pool.name = v.name;
  pool.organizationScoped = v.organizationScoped;
  if (v.allowedWorkspaces !== undefined) pool.allowedWorkspaces = v.allowedWorkspaces;
  return doc(200, { data: poolResource(pool, ctx) });
}

function validate(ctx: PlatformContext, org: OrganizationRecord, a: Record<string, unknown>, rels: Record<string, unknown>,
  pool: AgentPoolRecord | undefined): { name: string; organizationScoped: boolean; allowedWorkspaces?: string[] } {
  const problems: string[] = [];
  const name = a.name ?? pool?.name;
  if (typeof name !== 'string' || !name) problems.push('Name can\'t be blank');
  else if (!NAME_RE.test(name)) problems.push('Name can only contain letters, numbers, \'-\', and \'_\'');
  else if (Object.values(ctx.state.agentPools).some((x) => x.organizationId === org.externalId && x.name === name && x !== pool)) {
    problems.push('Name has already been taken');
  }
  // The spec gives true as the default of both create and update.
  const scoped = a['organization-scoped'] ?? true;
  if (typeof scoped !== 'boolean') problems.push('organization-scoped must be a boolean');
  const data = relationshipData(rels, 'allowed-workspaces');
  let allowed: string[] | undefined;
  if (data !== undefined) {
    if (!Array.isArray(data)) problems.push('data.relationships.allowed-workspaces.data must be an array');
    else {
      allowed = [];
      data.forEach((d: any, i) => {
        if (typeof d?.id !== 'string' || d.type !== 'workspaces') problems.push(`allowed-workspaces data[${i}] must be {"id": …, "type": "workspaces"}`);
        else if (ctx.state.workspaces[d.id]?.organizationId !== org.externalId) problems.push(`workspace "${d.id}" not found`);
        else allowed!.push(d.id);
      });
    }
  }
  if (problems.length) throw new ApiFailure(unprocessable(...problems));
  return { name: name as string, organizationScoped: scoped as boolean, allowedWorkspaces: allowed && [...new Set(allowed)] };
}

function usingWorkspaces(ctx: PlatformContext, pool: AgentPoolRecord) {
  return Object.values(ctx.state.workspaces).filter((w) => w.agentPoolId === pool.id);
}

export function workspaceStub(w: { id: string; name: string }): Record<string, unknown> {
  return { id: w.id, type: 'workspaces', attributes: { name: w.name }, links: { self: `${BASE}/workspaces/${w.id}` } };
}

export function poolResource(pool: AgentPoolRecord, ctx: PlatformContext): Record<string, unknown> {
  const self = `${BASE}/agent-pools/${pool.id}`;
  return {
    id: pool.id,
    type: 'agent-pools',
    attributes: {
      name: pool.name,
      'created-at': pool.createdAt,
      'organization-scoped': pool.organizationScoped,
      'agent-count': Object.values(ctx.state.agents).filter((a) => a.poolId === pool.id).length,
    },
    relationships: {
      agents: { links: { related: `${self}/agents` } },
      'authentication-tokens': { links: { related: `${self}/authentication-tokens` } },
      workspaces: { data: usingWorkspaces(ctx, pool).map((w) => ({ id: w.id, type: 'workspaces' })) },
      'allowed-workspaces': { data: (pool.allowedWorkspaces ?? []).map((id) => ({ id, type: 'workspaces' })) },
    },
    links: { self },
  };
}

function listAgents(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const found = visiblePool(ctx, p.id);
  if (!found) return notFound();
  const since = req.query.get('filter[last-ping-since]');
  let sinceMs: number | undefined;
  if (since !== null) {
    sinceMs = Date.parse(since);
    if (Number.isNaN(sinceMs)) return badRequest('filter[last-ping-since] must be an ISO 8601 timestamp');
  }
  const agents = Object.values(ctx.state.agents)
    .filter((a) => a.poolId === found.pool.id && (sinceMs === undefined || Date.parse(a.lastPingAt) >= sinceMs));
  return listDocument(agents, pageRequest(req.query, false), req, agentResource);
}

export function agentResource(a: AgentRecord): Record<string, unknown> {
  return {
    id: a.id,
    type: 'agents',
    attributes: { name: a.name, status: a.status, 'ip-address': a.ipAddress, 'last-ping-at': a.lastPingAt },
    links: { self: `${BASE}/agents/${a.id}` },
  };
}
