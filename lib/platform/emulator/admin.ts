import { createHash, randomBytes } from 'crypto';
import { Router } from '../../core/emulator-kit/router';
import { json } from '../../core/emulator-kit/types';
import { AdminContext, body, fail, findUser, orgNamed } from './admin-request';
import { ENTITLEMENT_BOOLEANS, ENTITLEMENT_LIMITS } from '../organization/organization.emulator';
import { newId, TokenKind } from './state';

/**
 * The emulator's administrator interface under `/__admin/`, for seeding what the platform
 * creates elsewhere (users, tokens, agent pools, entitlements). Plain JSON, authenticated by the
 * administrator token the emulator was started with. `GET /__admin/` lists the endpoints.
 */
export const ADMIN_ENDPOINTS = [
  { method: 'GET', path: '/__admin/', description: 'this list' },
  { method: 'POST', path: '/__admin/users', body: '{ username, email, admin?: boolean }', description: 'create a user (admin: may create organizations)' },
  { method: 'POST', path: '/__admin/tokens', body: '{ user, kind: "user"|"team"|"organization", organization?, team?, token?, permissions?: string[] }', description: 'issue a token bound to a user (team and organization tokens also to an organization, or a team token to a team of /__admin/organizations/:org/teams; team tokens carry permissions: manage-vcs, manage-agent-pools, manage-modules, create-workspaces); a new organization token revokes the organization\'s earlier one, a new token of a team the team\'s earlier one; answers the token string once' },
  { method: 'POST', path: '/__admin/organizations/:org/teams', body: '{ name }', description: 'create a team (team-…), for team tokens' },
  { method: 'POST', path: '/__admin/organizations/:org/owners', body: '{ user }', description: 'make a user an owner of an organization' },
  { method: 'PATCH', path: '/__admin/organizations/:org/entitlement-set', body: '{ <kebab-case entitlement>: boolean | integer | null, … }', description: 'set entitlements of an organization' },
  { method: 'POST', path: '/__admin/organizations/:org/agent-pools', body: '{ name, organizationScoped?: boolean }', description: 'seed an agent pool directly (bypasses the one-pool rule and the entitlement)' },
  { method: 'POST', path: '/__admin/organizations/:org/projects', body: '{ name }', description: 'create a project (prj-…)' },
  { method: 'POST', path: '/__admin/organizations/:org/workspaces', body: '{ name, project?, agentPool? }', description: 'create a plain workspace (ws-…); project: id or name, default a project "Default Project"' },
  { method: 'POST', path: '/__admin/organizations/:org/registry-modules', body: '{ name, provider, versions?: string[], noCodeReady?: boolean }', description: 'publish a private-registry module (mod-…) with versions' },
  { method: 'POST', path: '/__admin/registry-modules/:id/versions', body: '{ version, failing?: boolean }', description: 'publish a version; failing: plans of this version error' },
  { method: 'POST', path: '/__admin/agent-pools/:id/agents', body: '{ name?, status?, ipAddress?, lastPingAt? }', description: 'register an agent (agent-…) in a pool; status default idle' },
  { method: 'PATCH', path: '/__admin/agents/:id', body: '{ status?, lastPingAt?, name? }', description: 'change an agent (its status, last ping)' },
  { method: 'POST', path: '/__admin/organizations/:org/module-producers', body: '{ producer }', description: 'make organization `producer` a module producer of :org (self-hosted)' },
  { method: 'PUT', path: '/__admin/data-retention-policy', body: '{ type, deleteOlderThanNDays? }', description: 'the installation default data retention policy' },
  { method: 'PATCH', path: '/__admin/settings', body: '{ upgradeStepMs }', description: 'milliseconds a no-code upgrade run spends in each status' },
];

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The administrator routes that seed users, tokens, teams, owners, entitlements and agent pools;
 * `registerSeedRoutes` (admin-seed.ts) adds the rest (projects, workspaces, modules, agents, settings).
 */
export function registerAdminRoutes(router: Router<AdminContext>): void {
  router.add('GET', '/__admin', () => json(200, { endpoints: ADMIN_ENDPOINTS }));
  router.add('POST', '/__admin/users', (req, _p, ctx) => {
    const b = body(req);
    if (typeof b.username !== 'string' || !b.username || typeof b.email !== 'string') return fail(422, 'username and email are required strings');
    if (Object.values(ctx.state.users).some((u) => u.username === b.username)) return fail(422, `user "${b.username}" exists`);
    const user = { id: newId(ctx.state, 'user'), username: b.username, email: b.email, admin: b.admin === true };
    ctx.state.users[user.id] = user;
    return json(201, user);
  });
  router.add('POST', '/__admin/tokens', (req, _p, ctx) => {
    const b = body(req);
    const user = findUser(ctx.state, b.user);
    if (!user) return fail(422, 'user must name an existing user (id or username)');
    const kind = (b.kind ?? 'user') as TokenKind;
    if (!['user', 'team', 'organization'].includes(kind)) return fail(422, 'kind must be user, team or organization');
    let organizationId: string | undefined;
    const team = kind === 'team' && typeof b.team === 'string' ? ctx.state.teams[b.team] : undefined;
    if (kind === 'team' && typeof b.team === 'string' && !team) return fail(422, `team "${b.team}" not found`);
    if (team) {
      organizationId = team.organizationId;
    } else if (kind !== 'user') {
      const org = Object.values(ctx.state.organizations).find((o) => o.name === b.organization);
      if (!org) return fail(422, `${kind} tokens need an existing organization (or, for a team token, a team)`);
      organizationId = org.externalId;
    }
    const token = typeof b.token === 'string' && b.token ? b.token : `emu.atlasv1.${randomBytes(24).toString('hex')}`;
    const digest = tokenDigest(token);
    if (ctx.state.tokens[digest]) return fail(422, 'token exists');
    const id = newId(ctx.state, 'at');
    const permissions = Array.isArray(b.permissions) ? b.permissions.map(String) : undefined;
    const allowed = ['manage-vcs', 'manage-agent-pools', 'manage-modules', 'create-workspaces'];
    if (permissions && permissions.some((x: string) => !allowed.includes(x))) return fail(422, `permissions are among ${allowed.join(', ')}`);
    // An organization, or a team, has one active token: a new one revokes the earlier ones (as the platform does).
    for (const [d, t] of Object.entries(ctx.state.tokens)) {
      if ((kind === 'organization' && t.kind === 'organization' && t.organizationId === organizationId) || (team && t.teamId === team.id)) {
        delete ctx.state.tokens[d];
      }
    }
    ctx.state.tokens[digest] = {
      id, kind, userId: user.id, ...(organizationId ? { organizationId } : {}), ...(permissions ? { permissions } : {}), ...(team ? { teamId: team.id } : {}),
    };
    return json(201, { id, kind, user: user.id, token });
  });
  router.add('POST', '/__admin/organizations/:org/teams', (req, p, ctx) => {
    const org = orgNamed(ctx.state, p.org);
    const name = body(req).name;
    if (!org) return fail(404, 'organization not found');
    if (typeof name !== 'string' || !name) return fail(422, 'name is required');
    const team = { id: newId(ctx.state, 'team'), name, organizationId: org.externalId };
    ctx.state.teams[team.id] = team;
    return json(201, { id: team.id, name, organization: org.name });
  });
  router.add('POST', '/__admin/organizations/:org/owners', (req, p, ctx) => {
    const org = orgNamed(ctx.state, p.org);
    const user = findUser(ctx.state, body(req).user);
    if (!org || !user) return fail(404, 'organization or user not found');
    if (!org.owners.includes(user.id)) org.owners.push(user.id);
    return { status: 204 };
  });
  router.add('PATCH', '/__admin/organizations/:org/entitlement-set', (req, p, ctx) => {
    const org = orgNamed(ctx.state, p.org);
    if (!org) return fail(404, 'organization not found');
    const b = body(req);
    for (const [k, v] of Object.entries(b)) {
      const bool = (ENTITLEMENT_BOOLEANS as readonly string[]).includes(k);
      const limit = (ENTITLEMENT_LIMITS as readonly string[]).includes(k);
      if (!bool && !limit) return fail(422, `unknown entitlement "${k}"`);
      if (bool && typeof v !== 'boolean') return fail(422, `${k} must be a boolean`);
      if (limit && v !== null && !Number.isInteger(v)) return fail(422, `${k} must be an integer or null`);
    }
    Object.assign(org.entitlements, b);
    return json(200, { entitlements: org.entitlements });
  });
  router.add('POST', '/__admin/organizations/:org/agent-pools', (req, p, ctx) => {
    const org = orgNamed(ctx.state, p.org);
    if (!org) return fail(404, 'organization not found');
    const b = body(req);
    if (typeof b.name !== 'string' || !/^[A-Za-z0-9_-]+$/.test(b.name)) return fail(422, 'name may contain only letters, numbers, \'-\' and \'_\'');
    const pool = {
      id: newId(ctx.state, 'apool'), name: b.name, organizationId: org.externalId,
      createdAt: new Date().toISOString(), organizationScoped: b.organizationScoped !== false, allowedWorkspaces: [],
    };
    ctx.state.agentPools[pool.id] = pool;
    return json(201, pool);
  });
}
