import { PlatformFixture } from '../helpers';

let fx: PlatformFixture;
beforeAll(async () => {
  fx = await PlatformFixture.start();
  await fx.createOrg('adm');
});
afterAll(async () => { await fx.stop(); });

test('GET /__admin/ lists every seeding endpoint', async () => {
  const res = await fx.call('GET', '/__admin/');
  const paths = res.body.endpoints.map((e: any) => `${e.method} ${e.path}`);
  expect(paths).toEqual(expect.arrayContaining([
    'POST /__admin/organizations/:org/projects', 'POST /__admin/organizations/:org/workspaces', 'POST /__admin/organizations/:org/registry-modules',
    'POST /__admin/registry-modules/:id/versions', 'POST /__admin/agent-pools/:id/agents', 'PATCH /__admin/agents/:id',
    'POST /__admin/organizations/:org/module-producers', 'PUT /__admin/data-retention-policy', 'PATCH /__admin/settings',
  ]));
});

test.each([
  ['POST', '/__admin/organizations/none/projects', { name: 'p' }, 404],
  ['POST', '/__admin/organizations/adm/projects', {}, 422],
  ['POST', '/__admin/organizations/adm/workspaces', { name: 'a b' }, 422],
  ['POST', '/__admin/organizations/adm/workspaces', { name: 'w', project: 'prj-none' }, 422],
  ['POST', '/__admin/organizations/adm/registry-modules', { name: 'm' }, 422],
  ['POST', '/__admin/registry-modules/mod-none/versions', { version: '1.0.0' }, 404],
  ['POST', '/__admin/agent-pools/apool-none/agents', {}, 404],
  ['PATCH', '/__admin/agents/agent-none', { status: 'idle' }, 404],
  ['PUT', '/__admin/data-retention-policy', { type: 'data-retention-policy-delete-olders' }, 422],
  ['PATCH', '/__admin/settings', { upgradeStepMs: -1 }, 422],
  ['POST', '/__admin/tokens', { user: 'admin', kind: 'team', organization: 'adm', permissions: ['fly'] }, 422],
])('%s %s %j answers %i', async (method, path, body, status) => {
  expect((await fx.call(method, path, body)).status).toBe(status);
});

test('agents: bad status refused, status changes accepted; the admin interface needs the admin token', async () => {
  const pool = (await fx.call('POST', '/__admin/organizations/adm/agent-pools', { name: 'p' })).body;
  expect((await fx.call('POST', `/__admin/agent-pools/${pool.id}/agents`, { status: 'sleeping' })).status).toBe(422);
  const agent = (await fx.call('POST', `/__admin/agent-pools/${pool.id}/agents`, { status: 'busy' })).body;
  expect((await fx.call('PATCH', `/__admin/agents/${agent.id}`, { status: 'exited', lastPingAt: '2025-01-01T00:00:00Z' })).body)
    .toMatchObject({ status: 'exited', lastPingAt: '2025-01-01T00:00:00.000Z' });
  expect((await fx.call('PATCH', `/__admin/agents/${agent.id}`, { lastPingAt: 'soon' })).status).toBe(422);
  expect((await fx.call('GET', '/__admin/', undefined, 'not-the-admin')).status).toBe(401);
});
