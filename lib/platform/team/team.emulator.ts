import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { canManage, PlatformContext, visibleOrganization, visibleOrganizationById } from '../emulator/context';
import { ApiFailure, BASE, doc, listDocument, notFound, pageRequest, readData, relationshipData, unprocessable } from '../emulator/jsonapi';
import { newId, OrganizationRecord, PlatformState, TeamAccessRecord, TeamRecord } from '../emulator/state';

const TEAM_NAME_RE = /^[A-Za-z0-9_-]{1,255}$/;
const VISIBILITIES = ['secret', 'organization'];
/** go-tfe's `OrganizationAccess` keys. */
export const ORGANIZATION_ACCESS = [
  'manage-policies', 'manage-policy-overrides', 'manage-workspaces', 'manage-vcs-settings', 'manage-providers', 'manage-modules',
  'manage-run-tasks', 'manage-projects', 'read-workspaces', 'read-projects', 'manage-membership', 'manage-teams',
  'manage-organization-access', 'access-secret-teams', 'manage-agent-pools',
];
const ACCESS_LEVELS = ['read', 'plan', 'write', 'admin', 'custom'];

/** Each permission of a custom access: its values, and its value when the access becomes custom without it. */
const PERMISSIONS: Record<string, { values: readonly (string | boolean)[]; initial: string | boolean }> = {
  'runs': { values: ['read', 'plan', 'apply'], initial: 'read' },
  'variables': { values: ['none', 'read', 'write'], initial: 'none' },
  'state-versions': { values: ['none', 'read-outputs', 'read', 'write'], initial: 'none' },
  'sentinel-mocks': { values: ['none', 'read'], initial: 'none' },
  'workspace-locking': { values: [true, false], initial: false },
  'run-tasks': { values: [true, false], initial: false },
};

/** The permissions a fixed level implies (read-only on the real platform). */
const IMPLIED: Record<string, Record<string, string | boolean>> = {
  'read': { 'runs': 'read', 'variables': 'read', 'state-versions': 'read', 'sentinel-mocks': 'none', 'workspace-locking': false, 'run-tasks': false },
  'plan': { 'runs': 'plan', 'variables': 'read', 'state-versions': 'read', 'sentinel-mocks': 'none', 'workspace-locking': false, 'run-tasks': false },
  'write': { 'runs': 'apply', 'variables': 'write', 'state-versions': 'write', 'sentinel-mocks': 'read', 'workspace-locking': true, 'run-tasks': false },
  'admin': { 'runs': 'apply', 'variables': 'write', 'state-versions': 'write', 'sentinel-mocks': 'read', 'workspace-locking': true, 'run-tasks': true },
};

/**
 * The permissions of an access that is (or becomes) custom: those given over those it had (a fixed level's implied
 * ones when it was not custom), each checked. A fixed level's are read-only: what is given for one is ignored.
 */
function customPermissions(attributes: Record<string, unknown>, before: Record<string, string | boolean> | undefined, problems: string[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const [name, { values, initial }] of Object.entries(PERMISSIONS)) {
    const given = attributes[name];
    if (given !== undefined && !values.includes(given as string | boolean)) problems.push(`${name} must be one of ${values.join(', ')}`);
    out[name] = given !== undefined ? given as string | boolean : before?.[name] ?? initial;
  }
  return out;
}
/** The owners team every organization has: it cannot be renamed, have its access changed, nor be deleted. */
const OWNERS = 'owners';

/**
 * Teams and their access to workspaces: not in the spec's excerpt, but the real platform's
 * `GET`/`POST /organizations/<org>/teams` (`q`, `filter[names]`), `GET`/`PATCH`/`DELETE /teams/<id>`, and
 * `GET /team-workspaces?filter[workspace][id]=…`, `POST /team-workspaces`, `GET`/`PATCH`/`DELETE
 * /team-workspaces/<id>` (go-tfe's `Teams` and `TeamAccess`). Writes need owners (or the organization token).
 */
export function registerTeamRoutes(router: Router<PlatformContext>): void {
  router.add('GET', `${BASE}/organizations/:org/teams`, (req, p, ctx) => {
    const org = visibleOrganization(ctx, p.org);
    if (!org) return notFound();
    const q = req.query.get('q');
    const names = req.query.get('filter[names]')?.split(',');
    const found = Object.values(ctx.state.teams)
      .filter((t) => t.organizationId === org.externalId && (q === null || t.name.includes(q)) && (!names || names.includes(t.name)))
      .sort((a, b) => a.name.localeCompare(b.name));
    return listDocument(found, pageRequest(req.query, false), req, teamDocument);
  });
  router.add('POST', `${BASE}/organizations/:org/teams`, (req, p, ctx) => {
    const org = visibleOrganization(ctx, p.org);
    if (!org || !canManage(ctx, org)) return notFound();
    const { attributes } = readData(req, 'teams');
    const v = validateTeam(ctx.state, org, attributes, undefined);
    const team: TeamRecord = { id: newId(ctx.state, 'team'), organizationId: org.externalId, ...v };
    ctx.state.teams[team.id] = team;
    return doc(201, { data: teamDocument(team) });
  });
  router.add('GET', `${BASE}/teams/:id`, (_req, p, ctx) => {
    const team = visibleTeam(ctx, p.id);
    return team ? doc(200, { data: teamDocument(team) }) : notFound();
  });
  router.add('PATCH', `${BASE}/teams/:id`, (req, p, ctx) => {
    const { team, org } = managedTeam(ctx, p.id);
    const { attributes } = readData(req, 'teams');
    const v = validateTeam(ctx.state, org, attributes, team);
    if (team.name === OWNERS && (v.name !== OWNERS || 'organization-access' in attributes)) return unprocessable('The owners team cannot be renamed nor have its access changed');
    Object.assign(team, v);
    return doc(200, { data: teamDocument(team) });
  });
  router.add('DELETE', `${BASE}/teams/:id`, (_req, p, ctx) => {
    const { team } = managedTeam(ctx, p.id);
    if (team.name === OWNERS) return unprocessable('The owners team cannot be deleted');
    delete ctx.state.teams[team.id];
    for (const a of Object.values(ctx.state.teamAccess)) if (a.teamId === team.id) delete ctx.state.teamAccess[a.id];
    for (const [k, t] of Object.entries(ctx.state.tokens)) if (t.teamId === team.id) delete ctx.state.tokens[k];
    return { status: 204 };
  });
  router.add('GET', `${BASE}/team-workspaces`, (req: EmuRequest, _p, ctx): EmuResponse => {
    const wsId = req.query.get('filter[workspace][id]');
    if (wsId === null) return unprocessable('filter[workspace][id] is required');
    const ws = ctx.state.workspaces[wsId];
    if (!ws || !visibleOrganizationById(ctx, ws.organizationId)) return notFound();
    const found = Object.values(ctx.state.teamAccess).filter((a) => a.workspaceId === wsId);
    return listDocument(found, pageRequest(req.query, false), req, accessDocument);
  });
  router.add('POST', `${BASE}/team-workspaces`, (req, _p, ctx) => {
    const { attributes, relationships } = readData(req, 'team-workspaces');
    const team = relationshipData(relationships, 'team') as { id?: string; type?: string } | undefined;
    const workspace = relationshipData(relationships, 'workspace') as { id?: string; type?: string } | undefined;
    const ws = typeof workspace?.id === 'string' ? ctx.state.workspaces[workspace.id] : undefined;
    const org = ws && visibleOrganizationById(ctx, ws.organizationId);
    if (!ws || !org || workspace?.type !== 'workspaces' || !canManage(ctx, org)) return notFound();
    const t = typeof team?.id === 'string' ? ctx.state.teams[team.id] : undefined;
    const problems: string[] = [];
    if (!t || team?.type !== 'teams' || t.organizationId !== org.externalId) problems.push(`team "${String(team?.id)}" not found`);
    if (!ACCESS_LEVELS.includes(attributes.access as string)) problems.push(`access must be one of ${ACCESS_LEVELS.join(', ')}`);
    if (t && Object.values(ctx.state.teamAccess).some((a) => a.teamId === t.id && a.workspaceId === ws.id)) problems.push('Team has already been taken');
    const permissions = attributes.access === 'custom' ? customPermissions(attributes, undefined, problems) : undefined;
    if (problems.length) return unprocessable(...problems);
    const access: TeamAccessRecord = { id: newId(ctx.state, 'tws'), teamId: t!.id, workspaceId: ws.id, access: attributes.access as string, ...(permissions ? { permissions } : {}) };
    ctx.state.teamAccess[access.id] = access;
    return doc(201, { data: accessDocument(access) });
  });
  router.add('GET', `${BASE}/team-workspaces/:id`, (_req, p, ctx) => {
    const a = visibleAccess(ctx, p.id);
    return a ? doc(200, { data: accessDocument(a) }) : notFound();
  });
  router.add('PATCH', `${BASE}/team-workspaces/:id`, (req, p, ctx) => {
    const a = managedAccess(ctx, p.id);
    const { attributes } = readData(req, 'team-workspaces');
    // `access` may be left out (go-tfe's `TeamAccessUpdateOptions`): the level stays, a custom one's permissions change.
    const level = attributes.access === undefined ? a.access : attributes.access as string;
    if (!ACCESS_LEVELS.includes(level)) return unprocessable(`access must be one of ${ACCESS_LEVELS.join(', ')}`);
    const problems: string[] = [];
    const permissions = level === 'custom' ? customPermissions(attributes, a.permissions ?? IMPLIED[a.access], problems) : undefined;
    if (problems.length) return unprocessable(...problems);
    a.access = level;
    if (permissions) a.permissions = permissions; else delete a.permissions;
    return doc(200, { data: accessDocument(a) });
  });
  router.add('DELETE', `${BASE}/team-workspaces/:id`, (_req, p, ctx) => {
    const a = managedAccess(ctx, p.id);
    delete ctx.state.teamAccess[a.id];
    return { status: 204 };
  });
}

function visibleTeam(ctx: PlatformContext, id: string): TeamRecord | undefined {
  const team = ctx.state.teams[id];
  return team && visibleOrganizationById(ctx, team.organizationId) ? team : undefined;
}

function managedTeam(ctx: PlatformContext, id: string): { team: TeamRecord; org: OrganizationRecord } {
  const team = visibleTeam(ctx, id);
  const org = team && ctx.state.organizations[team.organizationId];
  if (!team || !org || !canManage(ctx, org)) throw new ApiFailure(notFound());
  return { team, org };
}

function visibleAccess(ctx: PlatformContext, id: string): TeamAccessRecord | undefined {
  const a = ctx.state.teamAccess[id];
  const ws = a && ctx.state.workspaces[a.workspaceId];
  return a && ws && visibleOrganizationById(ctx, ws.organizationId) ? a : undefined;
}

function managedAccess(ctx: PlatformContext, id: string): TeamAccessRecord {
  const a = visibleAccess(ctx, id);
  const org = a && ctx.state.organizations[ctx.state.workspaces[a.workspaceId].organizationId];
  if (!a || !org || !canManage(ctx, org)) throw new ApiFailure(notFound());
  return a;
}

function validateTeam(state: PlatformState, org: OrganizationRecord, a: Record<string, unknown>, team: TeamRecord | undefined):
{ name: string; visibility: string; organizationAccess: Record<string, boolean> } {
  const problems: string[] = [];
  const name = a.name ?? team?.name;
  if (typeof name !== 'string' || !TEAM_NAME_RE.test(name)) problems.push('Name can only contain letters, numbers, \'-\', and \'_\'');
  else if (Object.values(state.teams).some((t) => t.organizationId === org.externalId && t.name === name && t !== team)) problems.push('Name has already been taken');
  const visibility = a.visibility ?? team?.visibility ?? 'secret';
  if (!VISIBILITIES.includes(visibility as string)) problems.push(`visibility must be one of ${VISIBILITIES.join(', ')}`);
  const access: Record<string, boolean> = { ...(team?.organizationAccess ?? {}) };
  const given = a['organization-access'];
  if (given !== undefined) {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) problems.push('organization-access must be an object');
    else {
      for (const [k, v] of Object.entries(given)) {
        if (!ORGANIZATION_ACCESS.includes(k)) problems.push(`organization-access.${k} is not an organization access`);
        else if (typeof v !== 'boolean') problems.push(`organization-access.${k} must be a boolean`);
        else access[k] = v;
      }
    }
  }
  if (problems.length) throw new ApiFailure(unprocessable(...problems));
  return { name: name as string, visibility: visibility as string, organizationAccess: access };
}

/** A team as the real platform answers it (every organization access key, false unless granted). */
export function teamDocument(team: TeamRecord): Record<string, unknown> {
  const access = Object.fromEntries(ORGANIZATION_ACCESS.map((k) => [k, team.organizationAccess?.[k] === true]));
  return {
    id: team.id,
    type: 'teams',
    attributes: {
      name: team.name, visibility: team.visibility ?? 'secret', 'organization-access': access, 'users-count': 0,
      'sso-team-id': null, 'allow-member-token-management': true,
      permissions: { 'can-update-membership': true, 'can-destroy': team.name !== OWNERS, 'can-update-organization-access': team.name !== OWNERS, 'can-update-api-token': true, 'can-update-visibility': true },
    },
    relationships: { users: { data: [] }, 'organization-memberships': { data: [] } },
    links: { self: `${BASE}/teams/${team.id}` },
  };
}

function accessDocument(a: TeamAccessRecord): Record<string, unknown> {
  return {
    id: a.id,
    type: 'team-workspaces',
    attributes: { access: a.access, ...(a.access === 'custom' ? a.permissions : IMPLIED[a.access]) },
    relationships: { team: { data: { id: a.teamId, type: 'teams' } }, workspace: { data: { id: a.workspaceId, type: 'workspaces' } } },
    links: { self: `${BASE}/team-workspaces/${a.id}` },
  };
}
