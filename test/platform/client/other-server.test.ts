import { HandlerContext } from '../../../lib/core/engine/handler';
import { isRetryableStatus } from '../../../lib/core/http/retry-policy';
import { PLATFORM_API_PROFILE } from '../../../lib/platform/api-profile';
import { IncompleteListError, NoSuchEndpointError } from '../../../lib/platform/client/server-checks';
import { PlatformClient } from '../../../lib/platform/client/platform-client';
import { agentPoolHandler } from '../../../lib/platform/agent-pool/agent-pool.handler';
import { oauthClientHandler } from '../../../lib/platform/oauth-client/oauth-client.handler';
import { organizationHandler } from '../../../lib/platform/organization/organization.handler';
import { ADMIN_TOKEN, PlatformFixture } from '../helpers';

/**
 * The platform client against the emulator answering as a second server of the API (`shape: 'otf'`,
 * issue 33): what it trusts no more than the spec promises.
 */
let fx: PlatformFixture;
let client: PlatformClient;
const ctx = (address = 'app/x'): HandlerContext => ({ address, http: client.http });
beforeAll(async () => {
  fx = await PlatformFixture.start({ shape: 'otf' });
  client = PlatformClient.create({ address: fx.address, token: ADMIN_TOKEN, rateLimit: 0, backoffBaseMs: 1 });
});
afterAll(async () => {
  await client.close();
  await fx.stop();
});

test('an organization\'s name is its data.id: the server sends no name attribute', async () => {
  const created = await client.organizations.create({ name: 'os-acme', email: 'a@acme.io' });
  expect(created.name).toBe('os-acme');
  expect((await client.organizations.show('os-acme'))!.name).toBe('os-acme');
  const written = await organizationHandler.create(ctx(), { name: 'os-two', email: 'a@acme.io' });
  expect(written.id).toBe('os-two');
});

test('a server that ignores page[number]: the walk stops with an error naming the server after two pages, never loops', async () => {
  for (let i = 0; i < 22; i++) await client.organizations.create({ name: `os-pg-${String(i).padStart(2, '0')}`, email: 'p@pg.io' });
  const before = client.http.stats.requests;
  const seen: string[] = [];
  const err = await (async () => { for await (const o of client.organizations.iterate()) seen.push(o.name); })().catch((e) => e);
  expect(err).toBeInstanceOf(IncompleteListError);
  expect(err.message).toContain(`the platform server at ${fx.address}`);
  expect(err.message).toContain('page 2 was answered as page 1 (the server ignores page[number])');
  expect(client.http.stats.requests - before).toBe(2);
  expect(seen).toHaveLength(20);
});

test('absence is concluded from a complete list only: the organization prefetch leaves page-2 organizations to be read', async () => {
  const wanted = ['os-pg-00', 'os-pg-21', 'os-nowhere'].map((id) => ({ id, desired: { name: id } }));
  const known = await organizationHandler.prefetch!(ctx(), wanted);
  expect([...known.values()].filter((v) => v === null)).toEqual([]);
  // Read by itself, each answers what it is.
  expect(await organizationHandler.read(ctx(), 'os-pg-21')).toBeDefined();
  expect(await organizationHandler.read(ctx(), 'os-nowhere')).toBeUndefined();
});

test('a 404 that is no JSON:API document is "this server has no such endpoint", naming the kind, never absent', async () => {
  const err = await client.noCodeModules.show('nocode-x').catch((e) => e);
  expect(err).toBeInstanceOf(NoSuchEndpointError);
  expect(err.message).toContain(`the platform server at ${fx.address} has no endpoint GET /api/v2/no-code-modules/nocode-x`);
  expect(err.message).toContain('"404 page not found"');
  expect(err.message).toContain('this server does not serve no-code modules (platform.NoCodeModule');
  // The API's own 404 (a JSON:API document) still means absent.
  expect(await client.organizations.show('os-absent')).toBeUndefined();
});

test('an OAuth client without the projects relationship (and with "-" and "" for unset values) reads without a crash', async () => {
  const c = await client.oauthClients.create('os-acme', { serviceProvider: 'github', httpUrl: 'https://github.com', apiUrl: 'https://api.github.com', oauthTokenString: 't' });
  expect(c.id).toMatch(/^oc-/);
  const spec = { organization: 'os-acme', name: null, serviceProvider: 'github', key: null, httpUrl: 'https://github.com', apiUrl: 'https://api.github.com',
    rsaPublicKey: null, organizationScoped: true, projects: [] };
  const observed = await oauthClientHandler.read(ctx(), c.id, spec, { id: c.id, spec, outputs: {} });
  expect(observed!.fields).not.toHaveProperty('projects');
  expect(observed!.fields).toMatchObject({ key: null, rsaPublicKey: null, serviceProvider: 'github' });
  expect(observed!.notes).toBeUndefined();
});

test('a field the server does not keep is left to the last apply, with one note on the plan that writes it again', async () => {
  await client.organizations.update('os-acme', { assessmentsEnforced: true, ownersTeamSamlRoleId: 'role-1' });
  const prior = { id: 'os-acme', spec: { name: 'os-acme', email: 'a@acme.io', assessmentsEnforced: true, ownersTeamSamlRoleId: 'role-1' }, outputs: {} };
  const same = await organizationHandler.read(ctx(), 'os-acme', prior.spec, prior);
  expect(same!.fields).not.toHaveProperty('assessmentsEnforced');
  expect(same!.fields).not.toHaveProperty('ownersTeamSamlRoleId');
  expect(same!.notes).toBeUndefined();
  const changed = await organizationHandler.read(ctx(), 'os-acme', { ...prior.spec, ownersTeamSamlRoleId: 'role-2' }, prior);
  expect(changed!.notes).toEqual(['ownersTeamSamlRoleId: the server does not keep this field (it answers it as ""); converge sends it and compares it with what the last apply wrote']);
});

test('OAuth client ids that do not start with oc- are accepted for import and lookups; <org>/<name> is not', () => {
  expect(oauthClientHandler.importId!('vcs-8f2a1c')).toBe('vcs-8f2a1c');
  expect(oauthClientHandler.importId!('oc-abc')).toBe('oc-abc');
  expect(() => oauthClientHandler.importId!('acme/main')).toThrow(/names are not unique/);
});

test('a 500 to a write is sent once (the server also answers it to bad input); a 500 to a read is retried', async () => {
  const before = client.http.stats.requests;
  const err = await client.organizations.create({ name: 'os-acme', email: 'a@acme.io' }).catch((e) => e);
  expect(err.status).toBe(500);
  expect(err.message).toContain('Name has already been taken');
  expect(err.retryable).toBe(false);
  expect(client.http.stats.requests - before).toBe(1);
  const apiWords = { errors: [{ status: '500', title: 'internal server error', detail: 'validation failed' }] };
  expect(isRetryableStatus(500, apiWords, 'PATCH', PLATFORM_API_PROFILE)).toBe(false);
  expect(isRetryableStatus(500, apiWords, 'DELETE', PLATFORM_API_PROFILE)).toBe(false);
  expect(isRetryableStatus(500, apiWords, 'GET', PLATFORM_API_PROFILE)).toBe(true);
  // Not the API's words (a proxy, an injected fault): ambiguous, left to recovery (which reads before it writes again).
  expect(isRetryableStatus(500, { errors: ['injected fault 500'] }, 'POST', PLATFORM_API_PROFILE)).toBe(true);
  expect(isRetryableStatus(503, undefined, 'POST', PLATFORM_API_PROFILE)).toBe(true);
});

test('the default agent pool is sent as the relationship default-agent-pool too (the other server reads only that)', async () => {
  const pool = await client.agentPools.create('os-acme', { name: 'onprem' });
  const org = await client.organizations.update('os-acme', { defaultExecutionMode: 'agent', defaultAgentPoolId: pool.id });
  expect(org.defaultAgentPool).toMatchObject({ id: pool.id });
});

test('an agent pool not where the last apply left it: the walk of the organizations stops with an error, never loops', async () => {
  // An organization past the first page the server answers (it ignores page[number]).
  await client.organizations.create({ name: 'os-zz-late', email: 'z@acme.io' });
  const pool = await client.agentPools.create('os-zz-late', { name: 'late' });
  const before = client.http.stats.requests;
  const err = await agentPoolHandler.read(ctx('app/pool'), pool.id, { organization: 'os-pg-00', name: pool.name }).catch((e) => e);
  expect(err).toBeInstanceOf(IncompleteListError);
  expect(err.message).toContain(`the platform server at ${fx.address} does not page GET /api/v2/organizations`);
  expect(client.http.stats.requests - before).toBeLessThan(30);
});

test('an OAuth client change that needs a PATCH the server lacks fails naming the server and the fields', async () => {
  const c = (await client.oauthClients.iterate('os-acme').next()).value!;
  const spec = { organization: 'os-acme', name: 'renamed', serviceProvider: 'github', key: null, httpUrl: 'https://github.com', apiUrl: 'https://api.github.com',
    rsaPublicKey: null, organizationScoped: true, projects: [] };
  const err = await oauthClientHandler.update(ctx('app/vcs'), c.id, spec, [{ path: 'name', before: null, after: 'renamed', sensitive: false, replace: false }],
    { id: c.id, spec: { ...spec, name: null }, outputs: {} }).catch((e) => e);
  expect(err.message).toContain(`app/vcs: the platform server at ${fx.address} does not update OAuth clients in place`);
  expect(err.message).toContain('failed with 405');
  expect(err.message).toContain('a change of name cannot be made there');
});

test('an agent pool without the allowed-workspaces relationship reads without a crash (left to the last apply)', async () => {
  const http = {
    api: 'platform', address: 'http://fake.invalid',
    request: async () => ({ status: 200, headers: {}, body: { data: {
      id: 'apool-x', type: 'agent-pools', attributes: { name: 'onprem', 'organization-scoped': true, 'agent-count': 0, 'created-at': '2026-01-01T00:00:00Z' },
    } } }),
  };
  const observed = await agentPoolHandler.read({ address: 'app/pool', http: http as any }, 'apool-x');
  expect(observed!.fields).toMatchObject({ name: 'onprem', organizationScoped: true });
  expect(observed!.fields).not.toHaveProperty('allowedWorkspaces');
});
