import { HandlerContext } from '../../../lib/core/engine/handler';
import { dataSourceHandler, resourceHandler } from '../../../lib/core/engine/registry';
import { admin, handlerContext, PlatformFixture } from '../helpers';
import { registerAllKinds } from '../../../lib/kinds';

registerAllKinds();

const handler = resourceHandler('platform.AgentPool');
let fx: PlatformFixture;
let ctx: HandlerContext;
let ws: any;

const spec = (over: Record<string, unknown> = {}) => ({
  organization: 'h-ap', name: 'onprem', organizationScoped: true, allowedWorkspaces: [], deleteInactiveAgents: false, ...over,
});
const prior = (id: string, s: Record<string, unknown>) => ({ id, spec: s, outputs: {} });

beforeAll(async () => {
  fx = await PlatformFixture.start();
  ctx = handlerContext(fx);
  await fx.createOrg('h-ap');
  ws = await admin(fx, 'POST', '/organizations/h-ap/workspaces', { name: 'web' });
});
afterAll(async () => {
  await ctx.http.close();
  await fx.stop();
});

test('create, read, no-op, rename and scope in place, find by name, import by name, delete', async () => {
  const desired = spec({ organizationScoped: false, allowedWorkspaces: [ws.id] });
  const w = await handler.create(ctx, desired);
  expect(w.id).toMatch(/^apool-/);
  // deleteInactiveAgents is an action, not a setting the API holds: unasked, it is left to the last apply.
  const { deleteInactiveAgents, ...held } = desired;
  expect(deleteInactiveAgents).toBe(false);
  expect((await handler.read(ctx, w.id, desired))!.fields).toEqual(held);
  expect((await handler.read(ctx, w.id))!.fields).toEqual(held);
  expect((await handler.find!(ctx, desired))[0]?.id).toBe(w.id);
  const renamed = spec({ name: 'renamed' });
  await handler.update(ctx, w.id, renamed, [], prior(w.id, desired));
  const { deleteInactiveAgents: _unasked, ...renamedHeld } = renamed;
  expect((await handler.read(ctx, w.id, renamed))!.fields).toEqual(renamedHeld);
  // With the last-applied spec (the old name) as the hint, as refresh gives it: the real name, the same organization.
  expect((await handler.read(ctx, w.id, desired))!.fields).toMatchObject({ organization: 'h-ap', name: 'renamed' });
  expect(handler.importId!('h-ap/renamed')).toBe('h-ap/renamed');
  expect(() => handler.importId!('nope')).toThrow(/apool-/);
  // An import by id (no desired spec) still finds the organization.
  expect((await handler.read(ctx, 'h-ap/renamed'))!.fields).toMatchObject({ organization: 'h-ap', name: 'renamed' });
  expect((await handler.read(ctx, w.id))!.fields).toMatchObject({ organization: 'h-ap' });
  await handler.delete(ctx, w.id, prior(w.id, renamed));
  expect(await handler.read(ctx, w.id)).toBeUndefined();
  expect((await handler.find!(ctx, renamed))[0]?.id).toBeUndefined();
  await handler.delete(ctx, w.id, prior(w.id, renamed));
});

test('deleteInactiveAgents: reads false while deletable agents exist; update deletes them and keeps the others', async () => {
  await fx.createOrg('h-ap2');
  const desired = { ...spec({ organization: 'h-ap2' }), deleteInactiveAgents: true };
  const w = await handler.create(ctx, desired);
  const keep = await admin(fx, 'POST', `/agent-pools/${w.id}/agents`, { status: 'busy' });
  for (const status of ['unknown', 'errored', 'exited']) await admin(fx, 'POST', `/agent-pools/${w.id}/agents`, { status });
  expect((await handler.read(ctx, w.id, desired))!.fields.deleteInactiveAgents).toBe(false);
  await handler.update(ctx, w.id, desired, [{ path: 'deleteInactiveAgents', before: false, after: true, sensitive: false, replace: false }], prior(w.id, desired));
  expect((await handler.read(ctx, w.id, desired))!.fields.deleteInactiveAgents).toBe(true);

  const agents = dataSourceHandler('platform.Agents');
  const out = await agents.read(ctx, { agentPoolId: w.id, statuses: [], lastPingSince: null });
  expect(out.ids).toEqual([keep.id]);
  expect(out.count).toBe(1);
});

test('Agents data source: status and last-ping filters; unknown pool is a 404 error', async () => {
  await fx.createOrg('h-ap3');
  const w = await handler.create(ctx, spec({ organization: 'h-ap3' }));
  const old = await admin(fx, 'POST', `/agent-pools/${w.id}/agents`, { status: 'idle', lastPingAt: '2020-01-01T00:00:00Z', name: 'old' });
  const busy = await admin(fx, 'POST', `/agent-pools/${w.id}/agents`, { status: 'busy' });
  const agents = dataSourceHandler('platform.Agents');
  expect((await agents.read(ctx, { agentPoolId: w.id, statuses: ['idle'], lastPingSince: null })).ids).toEqual([old.id]);
  expect((await agents.read(ctx, { agentPoolId: w.id, statuses: [], lastPingSince: '2024-01-01T00:00:00Z' })).ids).toEqual([busy.id]);
  expect((await agents.read(ctx, { agentPoolId: w.id, statuses: [], lastPingSince: null })).agents).toEqual([
    { id: old.id, name: 'old', status: 'idle', ipAddress: '10.0.0.1', lastPingAt: '2020-01-01T00:00:00.000Z' },
    expect.objectContaining({ id: busy.id, status: 'busy' }),
  ]);
  await expect(agents.read(ctx, { agentPoolId: 'apool-none', statuses: [], lastPingSince: null })).rejects.toThrow(/404/);
});

test('without the agents entitlement, create fails with the 404', async () => {
  await fx.createOrg('h-ap4');
  await admin(fx, 'PATCH', '/organizations/h-ap4/entitlement-set', { agents: false });
  const err = await handler.create(ctx, spec({ organization: 'h-ap4' })).catch((e) => e);
  expect(err.status).toBe(404);
});
