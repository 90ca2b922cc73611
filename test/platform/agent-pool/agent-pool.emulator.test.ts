import { AGENT_NOT_DELETABLE } from '../../../lib/platform/agent-pool/agent-pool.emulator';
import { admin, PlatformFixture, seedOrg } from '../helpers';

let fx: PlatformFixture;
beforeAll(async () => { fx = await PlatformFixture.start(); });
afterAll(async () => { await fx.stop(); });

function poolDoc(attributes: Record<string, unknown>, allowed?: string[]): unknown {
  return {
    data: {
      type: 'agent-pools', attributes,
      ...(allowed ? { relationships: { 'allowed-workspaces': { data: allowed.map((id) => ({ id, type: 'workspaces' })) } } } : {}),
    },
  };
}

test('create 201 with defaults; name rules; one pool per organization; update; delete', async () => {
  const { workspace } = await seedOrg(fx, 'ap');
  expect((await fx.api('POST', '/organizations/ap/agent-pools', poolDoc({ name: 'on prem' }))).body.errors[0].detail)
    .toBe('Name can only contain letters, numbers, \'-\', and \'_\'');
  expect((await fx.api('POST', '/organizations/ap/agent-pools', poolDoc({}))).status).toBe(422);
  expect((await fx.api('POST', '/organizations/ap/agent-pools', poolDoc({ name: 'x' }, ['ws-none']))).status).toBe(422);
  const res = await fx.api('POST', '/organizations/ap/agent-pools', poolDoc({ name: 'onprem' }, [workspace.id]));
  expect(res.status).toBe(201);
  const d = res.body.data;
  expect(d.id).toMatch(/^apool-/);
  expect(d.attributes).toMatchObject({ name: 'onprem', 'organization-scoped': true, 'agent-count': 0 });
  expect(d.relationships['allowed-workspaces'].data).toEqual([{ id: workspace.id, type: 'workspaces' }]);
  expect(d.relationships.agents.links.related).toBe(`/api/v2/agent-pools/${d.id}/agents`);
  const second = await fx.api('POST', '/organizations/ap/agent-pools', poolDoc({ name: 'second' }));
  expect(second.status).toBe(422);
  expect(second.body.errors[0].detail).toBe('Only one agent pool may exist per organization');

  const upd = await fx.api('PATCH', `/agent-pools/${d.id}`, poolDoc({ 'organization-scoped': false }, []));
  expect(upd.status).toBe(200);
  expect(upd.body.data.attributes).toMatchObject({ name: 'onprem', 'organization-scoped': false });
  expect(upd.body.data.relationships['allowed-workspaces'].data).toEqual([]);
  // Update's default for organization-scoped is true, as the spec says.
  expect((await fx.api('PATCH', `/agent-pools/${d.id}`, poolDoc({ name: 'renamed' }))).body.data.attributes['organization-scoped']).toBe(true);
  const bad = await fx.api('PATCH', `/agent-pools/${d.id}`, poolDoc({ name: 'a b' }));
  expect(bad.status).toBe(422);
  expect(bad.body.errors[0]).toMatchObject({ status: '422' });
  expect((await fx.api('PATCH', '/agent-pools/apool-none', poolDoc({}))).status).toBe(404);

  expect((await fx.api('DELETE', `/agent-pools/${d.id}`)).status).toBe(204);
  expect((await fx.api('GET', `/agent-pools/${d.id}`)).status).toBe(404);
  expect((await fx.api('DELETE', `/agent-pools/${d.id}`)).status).toBe(404);
});

test('list: q, sort, filter[allowed_workspaces][name], meta.status-counts, pagination', async () => {
  await fx.createOrg('apl');
  const ws = await admin(fx, 'POST', '/organizations/apl/workspaces', { name: 'api' });
  // The admin interface seeds pools beyond the one-pool rule, to exercise the list.
  const a = await admin(fx, 'POST', '/organizations/apl/agent-pools', { name: 'beta' });
  const b = await admin(fx, 'POST', '/organizations/apl/agent-pools', { name: 'alpha', organizationScoped: false });
  await admin(fx, 'POST', '/organizations/apl/agent-pools', { name: 'gamma', organizationScoped: false });
  await fx.api('PATCH', `/agent-pools/${b.id}`, poolDoc({ 'organization-scoped': false }, [ws.id]));
  const names = async (q: string) => (await fx.api('GET', `/organizations/apl/agent-pools${q}`)).body.data.map((p: any) => p.attributes.name);
  expect(await names('')).toEqual(['alpha', 'beta', 'gamma']);
  expect(await names('?sort=-name')).toEqual(['gamma', 'beta', 'alpha']);
  expect(await names('?sort=created-at')).toEqual(['beta', 'alpha', 'gamma']);
  expect(await names('?sort=-created-at')).toEqual(['gamma', 'alpha', 'beta']);
  expect(await names('?q=ALP')).toEqual(['alpha']);
  expect(await names('?filter%5Ballowed_workspaces%5D%5Bname%5D=api')).toEqual(['alpha', 'beta']);
  const res = await fx.api('GET', '/organizations/apl/agent-pools?q=a&page[size]=1');
  expect(res.body.meta['status-counts']).toEqual({ total: 3, matching: 3 });
  expect(res.body.meta.pagination).toMatchObject({ 'current-page': 1, 'total-pages': 3, 'total-count': 3, 'next-page': 2 });
  expect((await fx.api('GET', '/organizations/apl/agent-pools?q=gam')).body.meta['status-counts']).toEqual({ total: 3, matching: 1 });
  expect((await fx.api('GET', '/organizations/nope/agent-pools')).status).toBe(404);
  expect(a.id).toMatch(/^apool-/);
});

test('show with include=workspaces; agents list with filter[last-ping-since]; show agent', async () => {
  await fx.createOrg('aps');
  const pool = (await fx.api('POST', '/organizations/aps/agent-pools', poolDoc({ name: 'p' }))).body.data;
  const ws = await admin(fx, 'POST', '/organizations/aps/workspaces', { name: 'uses', agentPool: pool.id });
  const shown = await fx.api('GET', `/agent-pools/${pool.id}?include=workspaces`);
  expect(shown.body.data.relationships.workspaces.data).toEqual([{ id: ws.id, type: 'workspaces' }]);
  expect(shown.body.included).toEqual([expect.objectContaining({ id: ws.id, type: 'workspaces' })]);
  expect((await fx.api('GET', `/agent-pools/${pool.id}?include=agents`)).status).toBe(400);
  const old = await admin(fx, 'POST', `/agent-pools/${pool.id}/agents`, { name: 'old', lastPingAt: '2020-01-01T00:00:00Z' });
  const fresh = await admin(fx, 'POST', `/agent-pools/${pool.id}/agents`, { name: 'fresh', status: 'busy' });
  const all = await fx.api('GET', `/agent-pools/${pool.id}/agents`);
  expect(all.body.data.map((a: any) => a.id)).toEqual([old.id, fresh.id]);
  expect(all.body.meta.pagination['total-count']).toBe(2);
  const since = await fx.api('GET', `/agent-pools/${pool.id}/agents?filter%5Blast-ping-since%5D=2024-01-01T00:00:00Z`);
  expect(since.body.data.map((a: any) => a.id)).toEqual([fresh.id]);
  expect((await fx.api('GET', `/agent-pools/${pool.id}/agents?filter[last-ping-since]=yesterday`)).status).toBe(400);
  expect((await fx.api('GET', `/agent-pools/${pool.id}`)).body.data.attributes['agent-count']).toBe(2);
  const agent = await fx.api('GET', `/agents/${old.id}`);
  expect(agent.body.data).toEqual({
    id: old.id, type: 'agents', attributes: { name: 'old', status: 'idle', 'ip-address': '10.0.0.1', 'last-ping-at': '2020-01-01T00:00:00.000Z' },
    links: { self: `/api/v2/agents/${old.id}` },
  });
  expect((await fx.api('GET', '/agents/agent-none')).status).toBe(404);
  expect((await fx.api('GET', '/agent-pools/apool-none/agents')).status).toBe(404);
});

describe('agent deletion follows the state table', () => {
  let pool: any;
  beforeAll(async () => {
    await fx.createOrg('apd');
    pool = (await fx.api('POST', '/organizations/apd/agent-pools', poolDoc({ name: 'p' }))).body.data;
  });
  test.each(['idle', 'busy'])('status %s: 412 with the exact detail, agent unchanged', async (status) => {
    const a = await admin(fx, 'POST', `/agent-pools/${pool.id}/agents`, { status });
    const res = await fx.api('DELETE', `/agents/${a.id}`);
    expect(res.status).toBe(412);
    expect(res.body.errors[0]).toEqual({ status: '412', title: 'precondition failed', detail: AGENT_NOT_DELETABLE });
    expect((await fx.api('GET', `/agents/${a.id}`)).body.data.attributes.status).toBe(status);
  });
  test.each(['unknown', 'errored', 'exited'])('status %s: 204 and removed', async (status) => {
    const a = await admin(fx, 'POST', `/agent-pools/${pool.id}/agents`, { status: 'busy' });
    await admin(fx, 'PATCH', `/agents/${a.id}`, { status });
    const res = await fx.api('DELETE', `/agents/${a.id}`);
    expect(res.status).toBe(204);
    expect((await fx.api('GET', `/agents/${a.id}`)).status).toBe(404);
    expect((await fx.api('DELETE', `/agents/${a.id}`)).status).toBe(404);
  });
});

test('without the agents entitlement every agent endpoint answers 404', async () => {
  await fx.createOrg('apn');
  const pool = await admin(fx, 'POST', '/organizations/apn/agent-pools', { name: 'p' });
  const agent = await admin(fx, 'POST', `/agent-pools/${pool.id}/agents`, {});
  await admin(fx, 'PATCH', '/organizations/apn/entitlement-set', { agents: false });
  for (const [m, p] of [['GET', '/organizations/apn/agent-pools'], ['POST', '/organizations/apn/agent-pools'], ['GET', `/agent-pools/${pool.id}`],
    ['PATCH', `/agent-pools/${pool.id}`], ['DELETE', `/agent-pools/${pool.id}`], ['GET', `/agent-pools/${pool.id}/agents`],
    ['GET', `/agents/${agent.id}`], ['DELETE', `/agents/${agent.id}`]]) {
    expect([m, p, (await fx.api(m, p, poolDoc({ name: 'q' }))).status]).toEqual([m, p, 404]);
  }
});

test('a team token without manage-agent-pools reads but cannot create (404)', async () => {
  await fx.createOrg('apt');
  const reader = await fx.seedToken('ap-reader', 'team', 'apt');
  expect((await fx.api('GET', '/organizations/apt/agent-pools', undefined, reader)).status).toBe(200);
  expect((await fx.api('POST', '/organizations/apt/agent-pools', poolDoc({ name: 'p' }), reader)).status).toBe(404);
  const org = await fx.seedToken('ap-orgtoken', 'organization', 'apt');
  expect((await fx.api('POST', '/organizations/apt/agent-pools', poolDoc({ name: 'p' }), org)).status).toBe(201);
});

test('agents list: default page size 20, page[size] capped at 100', async () => {
  await fx.createOrg('app');
  const pool = await admin(fx, 'POST', '/organizations/app/agent-pools', { name: 'p' });
  for (let i = 0; i < 23; i++) await admin(fx, 'POST', `/agent-pools/${pool.id}/agents`, { name: `a${i}` });
  const first = await fx.api('GET', `/agent-pools/${pool.id}/agents`);
  expect(first.body.data).toHaveLength(20);
  expect(first.body.meta.pagination).toEqual({ 'current-page': 1, 'prev-page': null, 'next-page': 2, 'total-pages': 2, 'total-count': 23 });
  expect(first.body.links.prev).toBeNull();
  const big = await fx.api('GET', `/agent-pools/${pool.id}/agents?page[size]=500`);
  expect(big.body.data).toHaveLength(23);
  expect(big.body.links.next).toBeNull();
  expect(new URL(big.body.links.self).searchParams.get('page[size]')).toBe('100');
});
