import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { canDo, PlatformContext, visibleOrganization, visibleOrganizationById } from '../emulator/context';
import { ApiFailure, BASE, doc, errors, listDocument, notFound, pageRequest, readData, unprocessable } from '../emulator/jsonapi';
import { newId, OrganizationRecord, PlatformState, ProjectRecord } from '../emulator/state';

/** The real platform's rule for project names: 3 to 40 letters, numbers, inner spaces, `-` and `_`. */
const PROJECT_NAME_RE = /^[A-Za-z0-9_-][A-Za-z0-9 _-]{1,38}[A-Za-z0-9_-]$/;
export const DEFAULT_PROJECT = 'Default Project';

/**
 * The organization's default project, created on the first write that needs it (the platform creates it
 * with the organization; a list before any write does not show it).
 */
export function defaultProject(state: PlatformState, org: OrganizationRecord): ProjectRecord {
  const found = Object.values(state.projects).find((p) => p.organizationId === org.externalId && p.name === DEFAULT_PROJECT);
  if (found) return found;
  const p: ProjectRecord = { id: newId(state, 'prj'), name: DEFAULT_PROJECT, organizationId: org.externalId };
  state.projects[p.id] = p;
  return p;
}

/**
 * Projects: not in the spec's excerpt, but the real platform's `GET`/`POST /organizations/<org>/projects`
 * (`q`, `filter[names]`, paginated) and `GET`/`PATCH`/`DELETE /projects/<id>` (go-tfe's `Projects`).
 * Writes need the right to create workspaces (`can-create-project`); the default project cannot be
 * deleted, nor can a project that holds workspaces.
 */
export function registerProjectRoutes(router: Router<PlatformContext>): void {
  router.add('GET', `${BASE}/organizations/:org/projects`, list);
  router.add('POST', `${BASE}/organizations/:org/projects`, (req, p, ctx) => {
    const org = visibleOrganization(ctx, p.org);
    if (!org || !canDo(ctx, org, 'create-workspaces')) return notFound();
    const { attributes } = readData(req, 'projects');
    const v = validate(ctx, org, attributes, undefined);
    defaultProject(ctx.state, org);
    const project: ProjectRecord = { id: newId(ctx.state, 'prj'), name: v.name, organizationId: org.externalId, description: v.description };
    ctx.state.projects[project.id] = project;
    return doc(201, { data: projectDocument(ctx, project) });
  });
  router.add('GET', `${BASE}/projects/:id`, (_req, p, ctx) => {
    const project = visible(ctx, p.id);
    return project ? doc(200, { data: projectDocument(ctx, project) }) : notFound();
  });
  router.add('PATCH', `${BASE}/projects/:id`, (req, p, ctx) => {
    const { project, org } = managed(ctx, p.id);
    const { attributes } = readData(req, 'projects');
    const v = validate(ctx, org, attributes, project);
    if (project.name === DEFAULT_PROJECT && v.name !== DEFAULT_PROJECT) return unprocessable('The default project cannot be renamed');
    project.name = v.name;
    project.description = v.description;
    return doc(200, { data: projectDocument(ctx, project) });
  });
  router.add('DELETE', `${BASE}/projects/:id`, (_req, p, ctx) => {
    const { project } = managed(ctx, p.id);
    if (project.name === DEFAULT_PROJECT) return unprocessable('The default project cannot be deleted');
    if (Object.values(ctx.state.workspaces).some((w) => w.projectId === project.id)) {
      return errors(409, { status: '409', title: 'conflict', detail: 'Project must be empty before it can be deleted: move or delete its workspaces first' });
    }
    delete ctx.state.projects[project.id];
    for (const c of Object.values(ctx.state.oauthClients)) c.projects = c.projects.filter((id) => id !== project.id);
    for (const v of Object.values(ctx.state.variableSets)) v.projects = v.projects.filter((id) => id !== project.id);
    return { status: 204 };
  });
}

function visible(ctx: PlatformContext, id: string): ProjectRecord | undefined {
  const project = ctx.state.projects[id];
  return project && visibleOrganizationById(ctx, project.organizationId) ? project : undefined;
}

function managed(ctx: PlatformContext, id: string): { project: ProjectRecord; org: OrganizationRecord } {
  const project = visible(ctx, id);
  const org = project && ctx.state.organizations[project.organizationId];
  if (!project || !org || !canDo(ctx, org, 'create-workspaces')) throw new ApiFailure(notFound());
  return { project, org };
}

function list(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const org = visibleOrganization(ctx, p.org);
  if (!org) return notFound();
  const q = req.query.get('q');
  const names = req.query.get('filter[names]');
  const wanted = names === null ? undefined : names.split(',');
  const projects = Object.values(ctx.state.projects)
    .filter((x) => x.organizationId === org.externalId)
    .filter((x) => q === null || x.name.toLowerCase().includes(q.toLowerCase()))
    .filter((x) => wanted === undefined || wanted.includes(x.name))
    .sort((a, b) => a.name.localeCompare(b.name));
  return listDocument(projects, pageRequest(req.query, false), req, (x) => projectDocument(ctx, x));
}

function validate(ctx: PlatformContext, org: OrganizationRecord, a: Record<string, unknown>, project: ProjectRecord | undefined): { name: string; description: string } {
  const problems: string[] = [];
  const name = a.name ?? project?.name;
  if (typeof name !== 'string' || !name) problems.push('Name can\'t be blank');
  else if (!PROJECT_NAME_RE.test(name) && name !== DEFAULT_PROJECT) {
    problems.push('Name must be between 3 and 40 characters and may contain only letters, numbers, inner spaces, \'-\' and \'_\'');
  } else if (Object.values(ctx.state.projects).some((x) => x.organizationId === org.externalId && x.name === name && x !== project)) {
    problems.push('Name has already been taken');
  }
  const description = a.description ?? project?.description ?? '';
  if (typeof description !== 'string') problems.push('description must be a string');
  if (problems.length) throw new ApiFailure(unprocessable(...problems));
  return { name: name as string, description: description as string };
}

/** A project as the real platform answers it. */
export function projectDocument(ctx: PlatformContext, project: ProjectRecord): Record<string, unknown> {
  const org = ctx.state.organizations[project.organizationId];
  const self = `${BASE}/projects/${project.id}`;
  return {
    id: project.id,
    type: 'projects',
    attributes: {
      name: project.name,
      description: project.description ?? '',
      'auto-destroy-activity-duration': null,
      permissions: { 'can-read': true, 'can-update': true, 'can-destroy': project.name !== DEFAULT_PROJECT, 'can-create-workspace': true },
    },
    relationships: { organization: { data: { id: org.name, type: 'organizations' } } },
    links: { self },
  };
}
