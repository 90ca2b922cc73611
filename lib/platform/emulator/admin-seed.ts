import { Router } from '../../core/emulator-kit/router';
import { json } from '../../core/emulator-kit/types';
import { AdminContext, body, fail, orgNamed } from './admin-request';
import { AGENT_STATUSES } from '../agent-pool/agent-pool.emulator';
import { DRP_DELETE_OLDER, DRP_DONT_DELETE } from '../organization/self-hosted.emulator';
import { AgentRecord, AgentStatus, newId, OrganizationRecord, PlatformState, ProjectRecord, WorkspaceRecord } from './state';

const NAME_RE = /^[A-Za-z0-9_-]+$/;

/** A project of the organization by id or name; "Default Project" is created on first use. */
function projectOf(state: PlatformState, org: OrganizationRecord, ref: unknown): ProjectRecord | undefined {
  const projects = Object.values(state.projects).filter((p) => p.organizationId === org.externalId);
  if (ref === undefined) {
    const found = projects.find((p) => p.name === 'Default Project');
    if (found) return found;
    const p = { id: newId(state, 'prj'), name: 'Default Project', organizationId: org.externalId };
    state.projects[p.id] = p;
    return p;
  }
  return projects.find((p) => p.id === ref || p.name === ref);
}

/** Seeding what the platform creates elsewhere: projects, workspaces, registry modules, agents, producers, settings. */
export function registerSeedRoutes(router: Router<AdminContext>): void {
  router.add('POST', '/__admin/organizations/:org/projects', (req, p, ctx) => {
    const org = orgNamed(ctx.state, p.org);
    if (!org) return fail(404, 'organization not found');
    const b = body(req);
    if (typeof b.name !== 'string' || !b.name) return fail(422, 'name is required');
    if (Object.values(ctx.state.projects).some((x) => x.organizationId === org.externalId && x.name === b.name)) return fail(422, 'project exists');
    const project = { id: newId(ctx.state, 'prj'), name: b.name, organizationId: org.externalId };
    ctx.state.projects[project.id] = project;
    return json(201, project);
  });
  router.add('POST', '/__admin/organizations/:org/workspaces', (req, p, ctx) => {
    const org = orgNamed(ctx.state, p.org);
    if (!org) return fail(404, 'organization not found');
    const b = body(req);
    if (typeof b.name !== 'string' || !NAME_RE.test(b.name)) return fail(422, 'name may contain only letters, numbers, \'-\' and \'_\'');
    if (Object.values(ctx.state.workspaces).some((w) => w.organizationId === org.externalId && w.name === b.name)) return fail(422, 'workspace exists');
    const project = projectOf(ctx.state, org, b.project);
    if (!project) return fail(422, 'project not found');
    if (b.agentPool !== undefined && ctx.state.agentPools[b.agentPool]?.organizationId !== org.externalId) return fail(422, 'agent pool not found');
    const now = new Date().toISOString();
    const ws: WorkspaceRecord = {
      id: newId(ctx.state, 'ws'), name: b.name, organizationId: org.externalId, projectId: project.id, createdAt: now, updatedAt: now,
      description: '', autoApply: false, agentPoolId: b.agentPool ?? null, vars: [],
    };
    ctx.state.workspaces[ws.id] = ws;
    return json(201, ws);
  });
  router.add('POST', '/__admin/organizations/:org/registry-modules', (req, p, ctx) => {
    const org = orgNamed(ctx.state, p.org);
    if (!org) return fail(404, 'organization not found');
    const b = body(req);
    if (typeof b.name !== 'string' || !NAME_RE.test(b.name) || typeof b.provider !== 'string' || !NAME_RE.test(b.provider)) {
      return fail(422, 'name and provider are required (letters, numbers, \'-\' and \'_\')');
    }
    const versions = Array.isArray(b.versions) ? b.versions.map(String) : ['1.0.0'];
    const mod = {
      id: newId(ctx.state, 'mod'), organizationId: org.externalId, name: b.name, provider: b.provider,
      versions: versions.map((version: string) => ({ version })), noCodeReady: b.noCodeReady !== false,
    };
    ctx.state.registryModules[mod.id] = mod;
    return json(201, mod);
  });
  router.add('POST', '/__admin/registry-modules/:id/versions', (req, p, ctx) => {
    const mod = ctx.state.registryModules[p.id];
    if (!mod) return fail(404, 'registry module not found');
    const b = body(req);
    if (typeof b.version !== 'string' || !b.version) return fail(422, 'version is required');
    mod.versions = mod.versions.filter((v) => v.version !== b.version);
    mod.versions.push({ version: b.version, ...(b.failing === true ? { failing: true } : {}) });
    return json(201, mod);
  });
  router.add('POST', '/__admin/agent-pools/:id/agents', (req, p, ctx) => {
    const pool = ctx.state.agentPools[p.id];
    if (!pool) return fail(404, 'agent pool not found');
    const b = body(req);
    const status = b.status ?? 'idle';
    if (!AGENT_STATUSES.includes(status)) return fail(422, `status must be one of ${AGENT_STATUSES.join(', ')}`);
    const agent: AgentRecord = {
      id: newId(ctx.state, 'agent'), poolId: pool.id, name: typeof b.name === 'string' ? b.name : null, status: status as AgentStatus,
      ipAddress: typeof b.ipAddress === 'string' ? b.ipAddress : '10.0.0.1', lastPingAt: lastPing(b.lastPingAt) ?? new Date().toISOString(),
    };
    ctx.state.agents[agent.id] = agent;
    return json(201, agent);
  });
  router.add('PATCH', '/__admin/agents/:id', (req, p, ctx) => {
    const agent = ctx.state.agents[p.id];
    if (!agent) return fail(404, 'agent not found');
    const b = body(req);
    if (b.status !== undefined && !AGENT_STATUSES.includes(b.status)) return fail(422, `status must be one of ${AGENT_STATUSES.join(', ')}`);
    if (b.lastPingAt !== undefined && lastPing(b.lastPingAt) === undefined) return fail(422, 'lastPingAt must be an ISO 8601 timestamp');
    if (b.status !== undefined) agent.status = b.status;
    if (b.lastPingAt !== undefined) agent.lastPingAt = lastPing(b.lastPingAt)!;
    if (b.name !== undefined) agent.name = b.name;
    return json(200, agent);
  });
  router.add('POST', '/__admin/organizations/:org/module-producers', (req, p, ctx) => {
    const org = orgNamed(ctx.state, p.org);
    const producer = orgNamed(ctx.state, body(req).producer);
    if (!org || !producer) return fail(404, 'organization or producer not found');
    const list = ctx.state.moduleProducers[org.externalId] ?? [];
    if (!list.includes(producer.externalId)) list.push(producer.externalId);
    ctx.state.moduleProducers[org.externalId] = list;
    return { status: 204 };
  });
  router.add('PUT', '/__admin/data-retention-policy', (req, _p, ctx) => {
    const b = body(req);
    if (b.type === DRP_DONT_DELETE) ctx.state.installationDataRetentionPolicy = { id: 'drp-installation', type: DRP_DONT_DELETE };
    else if (b.type === DRP_DELETE_OLDER && Number.isInteger(b.deleteOlderThanNDays) && b.deleteOlderThanNDays > 0) {
      ctx.state.installationDataRetentionPolicy = { id: 'drp-installation', type: DRP_DELETE_OLDER, deleteOlderThanNDays: b.deleteOlderThanNDays };
    } else return fail(422, `type must be ${DRP_DONT_DELETE} or ${DRP_DELETE_OLDER} (with a positive deleteOlderThanNDays)`);
    return json(200, ctx.state.installationDataRetentionPolicy);
  });
  router.add('PATCH', '/__admin/settings', (req, _p, ctx) => {
    const b = body(req);
    if (!Number.isInteger(b.upgradeStepMs) || b.upgradeStepMs < 0) return fail(422, 'upgradeStepMs must be a non-negative integer');
    ctx.state.upgradeStepMs = b.upgradeStepMs;
    return json(200, { upgradeStepMs: ctx.state.upgradeStepMs });
  });
}

function lastPing(v: unknown): string | undefined {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) return undefined;
  return new Date(v).toISOString();
}
