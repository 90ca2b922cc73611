import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { canDo, PlatformContext, visibleOrganization, visibleOrganizationById } from '../emulator/context';
import { ApiFailure, BASE, doc, listDocument, notFound, pageRequest, readData, relationshipData, unprocessable } from '../emulator/jsonapi';
import { defaultProject } from '../project/project.emulator';
import { keyProblems, varId, varResource } from '../variable/variable.emulator';
import { newId, OrganizationRecord, VarRecord, WorkspaceRecord } from '../emulator/state';

const NAME_RE = /^[A-Za-z0-9_-]+$/;
const EXECUTION_MODES = ['remote', 'local', 'agent'];
/** The real platform's tag names: letters, numbers, colons, hyphens and underscores (it keeps them lowercase). */
const TAG_RE = /^[a-z0-9:_-]{1,255}$/;
/** The Terraform version the platform gives a workspace created without one. */
export const DEFAULT_ENGINE_VERSION = '1.9.0';

/** The attributes the workspace create and update bodies carry, validated against the organization. */
interface WorkspaceSettings {
  name?: string;
  description?: string;
  autoApply?: boolean;
  executionMode?: string;
  agentPoolId?: string | null;
  engineVersion?: string;
  workingDirectory?: string;
  tagNames?: string[];
  projectId?: string;
}

/**
 * Creating and listing workspaces and their tags: not in the spec's excerpt, but the real platform's
 * `POST`/`GET /organizations/<org>/workspaces` (`search[name]`, paginated) and
 * `POST`/`DELETE /workspaces/<id>/relationships/tags` (go-tfe's `Workspaces`). Reading, updating and
 * deleting one are in `registerWorkspaceRoutes` (below), which the NoCodeWorkspace shares.
 */
export function registerWorkspaceManagementRoutes(router: Router<PlatformContext>): void {
  router.add('GET', `${BASE}/organizations/:org/workspaces`, (req: EmuRequest, p, ctx): EmuResponse => {
    const org = visibleOrganization(ctx, p.org);
    if (!org) return notFound();
    const search = req.query.get('search[name]');
    const found = Object.values(ctx.state.workspaces)
      .filter((w) => w.organizationId === org.externalId && (search === null || w.name.includes(search)))
      .sort((a, b) => a.name.localeCompare(b.name));
    return listDocument(found, pageRequest(req.query, false), req, (w) => workspaceResource(ctx, w));
  });
  router.add('POST', `${BASE}/organizations/:org/workspaces`, (req, p, ctx) => {
    const org = visibleOrganization(ctx, p.org);
    if (!org || !canDo(ctx, org, 'create-workspaces')) return notFound();
    const { attributes, relationships } = readData(req, 'workspaces');
    if (attributes.name === undefined) return unprocessable('Name can\'t be blank');
    const s = workspaceSettings(ctx, org, attributes, relationships, undefined);
    checkAgentMode({ executionMode: s.executionMode ?? 'remote', agentPoolId: s.agentPoolId ?? null } as WorkspaceRecord);
    const now = new Date(ctx.clock.now()).toISOString();
    const ws: WorkspaceRecord = {
      id: newId(ctx.state, 'ws'), name: s.name!, organizationId: org.externalId, projectId: s.projectId ?? defaultProject(ctx.state, org).id,
      createdAt: now, updatedAt: now, description: s.description ?? '', autoApply: s.autoApply ?? false, agentPoolId: s.agentPoolId ?? null,
      executionMode: s.executionMode ?? 'remote', engineVersion: s.engineVersion ?? DEFAULT_ENGINE_VERSION, workingDirectory: s.workingDirectory ?? '',
      tagNames: [...new Set(s.tagNames ?? [])].sort(), vars: [],
    };
    ctx.state.workspaces[ws.id] = ws;
    return doc(201, { data: workspaceResource(ctx, ws) });
  });
  for (const method of ['POST', 'DELETE'] as const) {
    router.add(method, `${BASE}/workspaces/:id/relationships/tags`, (req, p, ctx) => {
      const ws = ctx.state.workspaces[p.id];
      const org = ws && visibleOrganizationById(ctx, ws.organizationId);
      if (!ws || !org || !canDo(ctx, org, 'create-workspaces')) return notFound();
      const names = readTags(req);
      const current = new Set(ws.tagNames ?? []);
      for (const n of names) if (method === 'POST') current.add(n); else current.delete(n);
      ws.tagNames = [...current].sort();
      return { status: 204 };
    });
  }
}

/** A `PATCH /workspaces/<id>`: every setting the create body takes (tags aside), validated as on create. */
export function patchWorkspace(ctx: PlatformContext, ws: WorkspaceRecord, req: EmuRequest): void {
  const org = ctx.state.organizations[ws.organizationId];
  const { attributes, relationships } = readData(req, 'workspaces');
  const s = workspaceSettings(ctx, org, attributes, relationships, ws);
  const next: WorkspaceRecord = { ...ws };
  if (s.name !== undefined) next.name = s.name;
  if (s.description !== undefined) next.description = s.description;
  if (s.autoApply !== undefined) next.autoApply = s.autoApply;
  if (s.executionMode !== undefined) next.executionMode = s.executionMode;
  if (s.agentPoolId !== undefined) next.agentPoolId = s.agentPoolId;
  // Leaving agent execution drops the pool, as the platform does.
  if (s.executionMode !== undefined && s.executionMode !== 'agent' && s.agentPoolId === undefined) next.agentPoolId = null;
  if (s.engineVersion !== undefined) next.engineVersion = s.engineVersion;
  if (s.workingDirectory !== undefined) next.workingDirectory = s.workingDirectory;
  if (s.projectId !== undefined) next.projectId = s.projectId;
  if (next.executionMode !== undefined || s.agentPoolId !== undefined) checkAgentMode({ ...next, executionMode: next.executionMode ?? (next.agentPoolId ? 'agent' : 'remote') });
  Object.assign(ws, next, { updatedAt: new Date(ctx.clock.now()).toISOString() });
}

/** An agent pool goes with agent execution, and agent execution needs one. */
function checkAgentMode(ws: WorkspaceRecord): void {
  if (ws.executionMode === 'agent' && !ws.agentPoolId) throw new ApiFailure(unprocessable('Agent pool must be set when the execution mode is agent'));
  if (ws.executionMode !== 'agent' && ws.agentPoolId) throw new ApiFailure(unprocessable('Agent pool can only be set when the execution mode is agent'));
}

function workspaceSettings(ctx: PlatformContext, org: OrganizationRecord, a: Record<string, unknown>, rels: Record<string, unknown>,
  ws: WorkspaceRecord | undefined): WorkspaceSettings {
  const problems: string[] = [];
  const s: WorkspaceSettings = {};
  if ('name' in a) {
    if (typeof a.name !== 'string' || !NAME_RE.test(a.name)) problems.push('Name can only contain letters, numbers, \'-\', and \'_\'');
    else if (Object.values(ctx.state.workspaces).some((w) => w.organizationId === org.externalId && w.name === a.name && w !== ws)) problems.push('Name has already been taken');
    else s.name = a.name;
  }
  // The platform reads a null working directory as the configuration's root.
  const attrs = a['working-directory'] === null ? { ...a, 'working-directory': '' } : a;
  for (const [attr, key] of [['description', 'description'], ['engine-version', 'engineVersion'], ['working-directory', 'workingDirectory']] as const) {
    if (!(attr in attrs)) continue;
    if (typeof attrs[attr] !== 'string') problems.push(`${attr} must be a string`);
    else (s as Record<string, unknown>)[key] = attrs[attr];
  }
  if (s.engineVersion !== undefined && !/^(latest|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$/.test(s.engineVersion)) problems.push(`engine-version "${s.engineVersion}" is not a version`);
  if ('auto-apply' in a) {
    if (typeof a['auto-apply'] !== 'boolean') problems.push('auto-apply must be a boolean');
    else s.autoApply = a['auto-apply'];
  }
  if ('execution-mode' in a) {
    if (typeof a['execution-mode'] !== 'string' || !EXECUTION_MODES.includes(a['execution-mode'])) problems.push('execution-mode must be one of remote, local, agent');
    else s.executionMode = a['execution-mode'];
  }
  if ('agent-pool-id' in a) {
    const id = a['agent-pool-id'];
    if (id === null) s.agentPoolId = null;
    else if (typeof id !== 'string' || ctx.state.agentPools[id]?.organizationId !== org.externalId) problems.push(`agent pool "${String(id)}" not found`);
    else s.agentPoolId = id;
  }
  if ('tag-names' in a) {
    const tags = a['tag-names'];
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string' || !TAG_RE.test(t))) problems.push('tag-names must be a list of tags (letters, numbers, colons, hyphens and underscores)');
    else s.tagNames = tags as string[];
  }
  const project = relationshipData(rels, 'project') as { id?: unknown; type?: unknown } | undefined;
  if (project !== undefined && project !== null) {
    if (typeof project.id !== 'string' || project.type !== 'projects' || ctx.state.projects[project.id]?.organizationId !== org.externalId) {
      problems.push(`project "${String(project.id)}" not found`);
    } else s.projectId = project.id;
  }
  if (problems.length) throw new ApiFailure(unprocessable(...problems));
  return s;
}

function readTags(req: EmuRequest): string[] {
  let body: any;
  try { body = JSON.parse(req.body.toString('utf8') || '{}'); } catch { throw new ApiFailure(unprocessable('the request body is not valid JSON')); }
  const data = body?.data;
  if (!Array.isArray(data)) throw new ApiFailure(unprocessable('data must be an array of tags'));
  return data.map((d: any, i: number) => {
    const name = d?.attributes?.name;
    if (d?.type !== 'tags' || typeof name !== 'string' || !TAG_RE.test(name)) throw new ApiFailure(unprocessable(`data[${i}] must be {"type": "tags", "attributes": {"name": …}} (letters, numbers, colons, hyphens and underscores)`));
    return name;
  });
}

const WORKSPACE_PERMISSIONS = [
  'can-update', 'can-destroy', 'can-queue-run', 'can-read-variable', 'can-update-variable', 'can-read-state-versions',
  'can-read-state-outputs', 'can-create-state-versions', 'can-queue-apply', 'can-lock', 'can-unlock', 'can-force-unlock',
  'can-read-settings', 'can-manage-tags', 'can-manage-run-tasks', 'can-force-delete', 'can-manage-assessments',
  'can-manage-ephemeral-workspaces', 'can-read-assessment-results', 'can-queue-destroy',
];

/** The workspace document of the spec's "Workspace created by a no-code module" table. */
export function workspaceResource(ctx: PlatformContext, ws: WorkspaceRecord): Record<string, unknown> {
  const org = ctx.state.organizations[ws.organizationId];
  const mod = ws.noCodeModuleId ? ctx.state.noCodeModules[ws.noCodeModuleId] : undefined;
  const reg = mod && ctx.state.registryModules[mod.registryModuleId];
  const self = `${BASE}/workspaces/${ws.id}`;
  const orgName = encodeURIComponent(org.name);
  const permissions: Record<string, boolean> = {};
  for (const k of WORKSPACE_PERMISSIONS) permissions[k] = k !== 'can-force-delete';
  const attributes: Record<string, unknown> = {
    'allow-destroy-plan': true,
    'auto-apply': ws.autoApply,
    'auto-destroy-at': null,
    'auto-destroy-status': null,
    'created-at': ws.createdAt,
    environment: 'default',
    locked: false,
    name: ws.name,
    'queue-all-runs': false,
    'speculative-enabled': true,
    'structured-run-output-enabled': true,
    'engine-version': ws.engineVersion ?? DEFAULT_ENGINE_VERSION,
    'working-directory': ws.workingDirectory ?? null,
    'global-remote-state': false,
    'updated-at': ws.updatedAt,
    'resource-count': 0,
    'apply-duration-average': null,
    'plan-duration-average': null,
    'policy-check-failures': null,
    'run-failures': null,
    'workspace-kpis-runs-count': null,
    'latest-change-at': ws.updatedAt,
    operations: true,
    'execution-mode': ws.executionMode ?? (ws.agentPoolId ? 'agent' : 'remote'),
    'vcs-repo': null,
    'vcs-repo-identifier': null,
    permissions,
    actions: { 'is-destroyable': true },
    description: ws.description,
    'file-triggers-enabled': true,
    'trigger-prefixes': [],
    'trigger-patterns': [],
    'assessments-enabled': false,
    'last-assessment-result-at': null,
    source: mod ? 'platform-module' : 'api',
    'source-name': reg ? reg.name : null,
    'source-url': reg ? `https://app.emulator.invalid/app/${orgName}/registry/modules/private/${orgName}/${reg.name}/${reg.provider}/${ws.moduleVersion}` : null,
    'source-module-id': reg ? `private/${org.name}/${reg.name}/${reg.provider}/${ws.moduleVersion}` : null,
    'no-code-upgrade-available': mod !== undefined && mod.versionPin !== ws.moduleVersion,
    'tag-names': ws.tagNames ?? [],
    'setting-overwrites': { 'execution-mode': false, 'agent-pool': false },
  };
  const related = (name: string) => ({ links: { related: `${self}/${name}` } });
  return {
    id: ws.id,
    type: 'workspaces',
    attributes,
    relationships: {
      organization: { data: { id: org.name, type: 'organizations' } },
      'current-run': { data: null },
      'latest-run': { data: null },
      outputs: related('current-state-version-outputs'),
      'remote-state-consumers': related('relationships/remote-state-consumers'),
      'current-state-version': { data: null, ...related('current-state-version') },
      'current-configuration-version': { data: null, ...related('current-configuration-version') },
      'agent-pool': { data: ws.agentPoolId ? { id: ws.agentPoolId, type: 'agent-pools' } : null },
      readme: related('readme'),
      project: { data: { id: ws.projectId, type: 'projects' } },
      'current-assessment-result': { data: null },
      ...(ws.noCodeModuleVersionId ? { 'no-code-module-version': { data: { id: ws.noCodeModuleVersionId, type: 'no-code-module-versions' } } } : {}),
      vars: { data: ws.vars.map((v) => ({ id: varId(ws, v), type: 'vars' })), ...related('vars') },
    },
    links: { self, 'self-html': `/app/${orgName}/workspaces/${encodeURIComponent(ws.name)}` },
  };
}

/**
 * Reading, updating and deleting a workspace: not in the spec's excerpt, but the real platform's
 * `GET`/`PATCH`/`DELETE /workspaces/<id>` (PATCH: `name`, `description`, `auto-apply`) and `GET /organizations/<org>/workspaces/<name>`; the
 * NoCodeWorkspace lifecycle needs them.
 */
export function registerWorkspaceRoutes(router: Router<PlatformContext>): void {
  const visibleWs = (ctx: PlatformContext, id: string): WorkspaceRecord | undefined => {
    const ws = ctx.state.workspaces[id];
    return ws && visibleOrganizationById(ctx, ws.organizationId) ? ws : undefined;
  };
  router.add('GET', `${BASE}/workspaces/:id`, (_req, p, ctx) => {
    const ws = visibleWs(ctx, p.id);
    return ws ? doc(200, { data: workspaceResource(ctx, ws) }) : notFound();
  });
  router.add('GET', `${BASE}/organizations/:org/workspaces/:name`, (_req, p, ctx) => {
    const org = visibleOrganization(ctx, p.org);
    const ws = org && Object.values(ctx.state.workspaces).find((w) => w.organizationId === org.externalId && w.name === p.name);
    return ws ? doc(200, { data: workspaceResource(ctx, ws) }) : notFound();
  });
  // The workspace's variables (the real platform's `GET /workspaces/<id>/vars`; a sensitive value reads as null)
  // and `PATCH /workspaces/<id>/vars/<var id>` (value, description, hcl, sensitive), which a user runs outside converge.
  router.add('GET', `${BASE}/workspaces/:id/vars`, (_req, p, ctx) => {
    const ws = visibleWs(ctx, p.id);
    return ws ? doc(200, { data: ws.vars.map((v) => varResource(ws, v)) }) : notFound();
  });
  router.add('PATCH', `${BASE}/workspaces/:id/vars/:var`, (req, p, ctx) => {
    const ws = visibleWs(ctx, p.id);
    const v = ws?.vars.find((x) => varId(ws, x) === p.var);
    if (!ws || !v || !canDo(ctx, ctx.state.organizations[ws.organizationId], 'create-workspaces')) return notFound();
    const { attributes: a } = readData(req, 'vars');
    const problems: string[] = [];
    for (const k of ['value', 'description'] as const) if (k in a && typeof a[k] !== 'string') problems.push(`${k} must be a string`);
    for (const k of ['hcl', 'sensitive'] as const) if (k in a && typeof a[k] !== 'boolean') problems.push(`${k} must be a boolean`);
    if (v.sensitive && a.sensitive === false) problems.push('a sensitive variable cannot be made non-sensitive');
    problems.push(...keyProblems(ws, v, a));
    if (problems.length) return unprocessable(...problems);
    if ('key' in a) v.key = a.key as string;
    if ('category' in a) v.category = a.category as VarRecord['category'];
    if ('value' in a) v.value = a.value as string;
    if ('description' in a) v.description = a.description as string;
    if ('hcl' in a) v.hcl = a.hcl as boolean;
    if ('sensitive' in a) v.sensitive = a.sensitive as boolean;
    ws.updatedAt = new Date(ctx.clock.now()).toISOString();
    return doc(200, { data: varResource(ws, v) });
  });
  router.add('PATCH', `${BASE}/workspaces/:id`, (req, p, ctx) => {
    const ws = visibleWs(ctx, p.id);
    if (!ws || !canDo(ctx, ctx.state.organizations[ws.organizationId], 'create-workspaces')) return notFound();
    patchWorkspace(ctx, ws, req);
    return doc(200, { data: workspaceResource(ctx, ws) });
  });
  router.add('DELETE', `${BASE}/workspaces/:id`, (_req, p, ctx) => {
    const ws = visibleWs(ctx, p.id);
    if (!ws || !canDo(ctx, ctx.state.organizations[ws.organizationId], 'create-workspaces')) return notFound();
    delete ctx.state.workspaces[ws.id];
    for (const r of Object.values(ctx.state.upgradeRuns)) if (r.workspaceId === ws.id) delete ctx.state.upgradeRuns[r.id];
    for (const a of Object.values(ctx.state.teamAccess)) if (a.workspaceId === ws.id) delete ctx.state.teamAccess[a.id];
    for (const v of Object.values(ctx.state.variableSets)) v.workspaces = v.workspaces.filter((id) => id !== ws.id);
    for (const pool of Object.values(ctx.state.agentPools)) {
      if (pool.allowedWorkspaces) pool.allowedWorkspaces = pool.allowedWorkspaces.filter((id) => id !== ws.id);
    }
    return { status: 204 };
  });
}
