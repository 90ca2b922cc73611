import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { canDo, PlatformContext, visibleOrganization, visibleOrganizationById } from '../emulator/context';
import { ApiFailure, BASE, doc, listDocument, notFound, pageRequest, readData, relationshipData, unprocessable } from '../emulator/jsonapi';
import { defaultProject } from '../project/project.emulator';
import { newId, OrganizationRecord, WorkspaceRecord } from '../emulator/state';

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
 * deleting one are in `registerWorkspaceRoutes` (no-code-modules.ts), which the NoCodeWorkspace shares.
 */
export function registerWorkspaceManagementRoutes(router: Router<PlatformContext>, render: (ctx: PlatformContext, ws: WorkspaceRecord) => unknown): void {
  router.add('GET', `${BASE}/organizations/:org/workspaces`, (req: EmuRequest, p, ctx): EmuResponse => {
    const org = visibleOrganization(ctx, p.org);
    if (!org) return notFound();
    const search = req.query.get('search[name]');
    const found = Object.values(ctx.state.workspaces)
      .filter((w) => w.organizationId === org.externalId && (search === null || w.name.includes(search)))
      .sort((a, b) => a.name.localeCompare(b.name));
    return listDocument(found, pageRequest(req.query, false), req, (w) => render(ctx, w));
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
    return doc(201, { data: render(ctx, ws) });
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
