import { Router } from '../../core/emulator-kit/router';
import { EmuRequest } from '../../core/emulator-kit/types';
import { canManage, PlatformContext, visibleOrganization, visibleOrganizationById } from '../emulator/context';
import { ApiFailure, BASE, doc, listDocument, notFound, pageRequest, readData, readIdentifiers, unprocessable } from '../emulator/jsonapi';
import { newId, OrganizationRecord, PlatformState, VariableSetRecord } from '../emulator/state';
import { registerVariableSetVariableRoutes } from './variable-set-variables.emulator';

/**
 * Variable sets: not in the spec's excerpt, but the real platform's `GET`/`POST
 * /organizations/<org>/varsets`, `GET`/`PATCH`/`DELETE /varsets/<id>` and `POST`/`DELETE
 * /varsets/<id>/relationships/workspaces` and `…/projects` (go-tfe's `VariableSets`), and the set's own
 * variables (`variable-set-variables.emulator.ts`). Writes need owners (`can-manage-varsets`).
 */
export function registerVariableSetRoutes(router: Router<PlatformContext>): void {
  registerVariableSetVariableRoutes(router, visible, managed);
  router.add('GET', `${BASE}/organizations/:org/varsets`, (req, p, ctx) => {
    const org = visibleOrganization(ctx, p.org);
    if (!org) return notFound();
    const found = Object.values(ctx.state.variableSets).filter((v) => v.organizationId === org.externalId).sort((a, b) => a.name.localeCompare(b.name));
    return listDocument(found, pageRequest(req.query, false), req, (v) => setDocument(ctx.state, v));
  });
  router.add('POST', `${BASE}/organizations/:org/varsets`, (req, p, ctx) => {
    const org = visibleOrganization(ctx, p.org);
    if (!org || !canManage(ctx, org)) return notFound();
    const { attributes } = readData(req, 'varsets');
    const v = validate(ctx.state, org, attributes, undefined);
    const set: VariableSetRecord = { id: newId(ctx.state, 'varset'), organizationId: org.externalId, ...v, workspaces: [], projects: [] };
    ctx.state.variableSets[set.id] = set;
    return doc(201, { data: setDocument(ctx.state, set) });
  });
  router.add('GET', `${BASE}/varsets/:id`, (_req, p, ctx) => {
    const set = visible(ctx, p.id);
    return set ? doc(200, { data: setDocument(ctx.state, set) }) : notFound();
  });
  router.add('PATCH', `${BASE}/varsets/:id`, (req, p, ctx) => {
    const { set, org } = managed(ctx, p.id);
    const { attributes } = readData(req, 'varsets');
    const v = validate(ctx.state, org, attributes, set);
    if (v.global && (set.workspaces.length || set.projects.length)) return unprocessable('A global variable set cannot be applied to workspaces or projects');
    Object.assign(set, v);
    return doc(200, { data: setDocument(ctx.state, set) });
  });
  router.add('DELETE', `${BASE}/varsets/:id`, (_req, p, ctx) => {
    const { set } = managed(ctx, p.id);
    delete ctx.state.variableSets[set.id];
    return { status: 204 };
  });
  for (const kind of ['workspaces', 'projects'] as const) {
    for (const method of ['POST', 'DELETE'] as const) {
      router.add(method, `${BASE}/varsets/:id/relationships/${kind}`, (req: EmuRequest, p, ctx) => {
        const { set, org } = managed(ctx, p.id);
        const ids = readIdentifiers(req, kind);
        const table = kind === 'workspaces' ? ctx.state.workspaces : ctx.state.projects;
        const unknown = ids.filter((id) => table[id]?.organizationId !== org.externalId);
        if (unknown.length) return unprocessable(...unknown.map((id) => `${kind === 'workspaces' ? 'workspace' : 'project'} "${id}" not found`));
        if (method === 'POST' && set.global) return unprocessable('A global variable set cannot be applied to workspaces or projects');
        set[kind] = method === 'POST' ? [...new Set([...set[kind], ...ids])] : set[kind].filter((id) => !ids.includes(id));
        return { status: 204 };
      });
    }
  }
}

export function visible(ctx: PlatformContext, id: string): VariableSetRecord | undefined {
  const set = ctx.state.variableSets[id];
  return set && visibleOrganizationById(ctx, set.organizationId) ? set : undefined;
}

export function managed(ctx: PlatformContext, id: string): { set: VariableSetRecord; org: OrganizationRecord } {
  const set = visible(ctx, id);
  const org = set && ctx.state.organizations[set.organizationId];
  if (!set || !org || !canManage(ctx, org)) throw new ApiFailure(notFound());
  return { set, org };
}

function validate(state: PlatformState, org: OrganizationRecord, a: Record<string, unknown>, set: VariableSetRecord | undefined):
{ name: string; description: string; global: boolean; priority: boolean } {
  const problems: string[] = [];
  const name = a.name ?? set?.name;
  if (typeof name !== 'string' || !name || name.length > 128) problems.push('Name must be 1 to 128 characters');
  else if (Object.values(state.variableSets).some((v) => v.organizationId === org.externalId && v.name === name && v !== set)) problems.push('Name has already been taken');
  const description = a.description ?? set?.description ?? '';
  if (typeof description !== 'string') problems.push('description must be a string');
  const global = a.global ?? set?.global ?? false;
  const priority = a.priority ?? set?.priority ?? false;
  if (typeof global !== 'boolean') problems.push('global must be a boolean');
  if (typeof priority !== 'boolean') problems.push('priority must be a boolean');
  if (problems.length) throw new ApiFailure(unprocessable(...problems));
  return { name: name as string, description: description as string, global: global as boolean, priority: priority as boolean };
}

function setDocument(state: PlatformState, set: VariableSetRecord): Record<string, unknown> {
  const org = state.organizations[set.organizationId];
  return {
    id: set.id,
    type: 'varsets',
    attributes: { name: set.name, description: set.description, global: set.global, priority: set.priority, 'updated-at': null, 'var-count': (set.vars ?? []).length, 'workspace-count': set.workspaces.length, 'project-count': set.projects.length },
    relationships: {
      organization: { data: { id: org.name, type: 'organizations' } },
      workspaces: { data: set.workspaces.map((id) => ({ id, type: 'workspaces' })) },
      projects: { data: set.projects.map((id) => ({ id, type: 'projects' })) },
      vars: { data: (set.vars ?? []).map((v) => ({ id: v.id, type: 'vars' })) },
    },
    links: { self: `${BASE}/varsets/${set.id}` },
  };
}
