import { HandlerContext, PriorRecord } from '../../../lib/core/engine/handler';
import { dataSourceHandler, resourceHandler } from '../../../lib/core/engine/registry';
import { HttpClient } from '../../../lib/core/http/http-client';
import { ADMIN_TOKEN, PlatformFixture } from '../helpers';
import { registerAllKinds } from '../../../lib/kinds';

registerAllKinds();

let fx: PlatformFixture;
let ctx: HandlerContext;
const handler = resourceHandler('platform.Organization');

function spec(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'h-acme', email: 'ops@acme.io', sessionTimeout: 20160, sessionRemember: 20160, collaboratorAuthPolicy: 'password',
    costEstimationEnabled: false, sendPassingStatusesForUntriggeredSpeculativePlans: false, aggregatedCommitStatusEnabled: true,
    ownersTeamSamlRoleId: null, assessmentsEnforced: false, allowForceDeleteWorkspaces: false, defaultExecutionMode: 'remote',
    defaultAgentPoolId: null, ...overrides,
  };
}

function prior(id: string, s: Record<string, unknown>): PriorRecord {
  return { id, spec: s, outputs: {} };
}

beforeAll(async () => {
  fx = await PlatformFixture.start();
  ctx = {
    address: 'org',
    http: new HttpClient({ api: 'platform', baseUrl: fx.address, authHeaders: { authorization: `Bearer ${ADMIN_TOKEN}` }, rateLimit: 0 }),
  };
});
afterAll(async () => {
  await ctx.http.close();
  await fx.stop();
});

test('identity, import id and the destroy warning', () => {
  expect(handler.api).toBe('platform');
  expect(handler.naturalId(spec())).toBe('h-acme');
  expect(handler.importId!('acme')).toBe('acme');
  expect(() => handler.importId!('a/b')).toThrow(/organization name/);
  expect(handler.destroyWarning).toMatch(/deletes all of its data/);
});

test('create, read (fields shaped like the spec), rename in place, delete', async () => {
  const written = await handler.create(ctx, spec());
  expect(written.id).toBe('h-acme');
  expect(written.outputs).toMatchObject({ name: 'h-acme' });
  expect(written.outputs!.externalId).toMatch(/^org-/);
  expect(written.outputs!.entitlementSetId).toBe(written.outputs!.externalId);

  const observed = await handler.read(ctx, 'h-acme', spec());
  expect(observed!.fields).toEqual(spec());
  expect(observed!.outputs).toEqual(written.outputs);

  const renamed = spec({ name: 'h-renamed', costEstimationEnabled: true });
  const updated = await handler.update(ctx, 'h-acme', renamed, [], prior('h-acme', spec()));
  expect(updated.id).toBe('h-renamed');
  expect(updated.outputs!.externalId).toBe(written.outputs!.externalId);
  expect(await handler.read(ctx, 'h-acme')).toBeUndefined();
  expect((await handler.read(ctx, 'h-renamed', renamed))!.fields).toEqual(renamed);

  await handler.delete(ctx, 'h-renamed', prior('h-renamed', renamed));
  expect(await handler.read(ctx, 'h-renamed')).toBeUndefined();
  // Already gone is success.
  await handler.delete(ctx, 'h-renamed', prior('h-renamed', renamed));
});

test('agent mode with a pool of the organization, and back to remote', async () => {
  await handler.create(ctx, spec({ name: 'h-agent' }));
  const pool = (await fx.call('POST', '/__admin/organizations/h-agent/agent-pools', { name: 'onprem' })).body;
  const agent = spec({ name: 'h-agent', defaultExecutionMode: 'agent', defaultAgentPoolId: pool.id });
  await handler.update(ctx, 'h-agent', agent, [], prior('h-agent', spec({ name: 'h-agent' })));
  expect((await handler.read(ctx, 'h-agent', agent))!.fields).toEqual(agent);
  const remote = spec({ name: 'h-agent' });
  await handler.update(ctx, 'h-agent', remote, [], prior('h-agent', agent));
  expect((await handler.read(ctx, 'h-agent', remote))!.fields).toEqual(remote);
});

test('an API refusal keeps the status, the detail and the construct address', async () => {
  await handler.create(ctx, spec({ name: 'h-dup' }));
  const err = await handler.create(ctx, spec({ name: 'h-dup' })).catch((e) => e);
  expect(err.status).toBe(422);
  expect(err.message).toMatch(/^org: platform API POST \/api\/v2\/organizations failed with 422: .*Name has already been taken/);
});

test('the self-hosted edition does not return assessments-enforced: it is left to the last apply', async () => {
  const sh = await PlatformFixture.start({ edition: 'self-hosted' });
  const shCtx: HandlerContext = {
    address: 'org',
    http: new HttpClient({ api: 'platform', baseUrl: sh.address, authHeaders: { authorization: `Bearer ${ADMIN_TOKEN}` }, rateLimit: 0 }),
  };
  try {
    const desired = spec({ name: 'h-sh', assessmentsEnforced: true });
    await handler.create(shCtx, desired);
    const { assessmentsEnforced, ...returned } = desired;
    expect(assessmentsEnforced).toBe(true);
    expect((await handler.read(shCtx, 'h-sh', desired))!.fields).toEqual(returned);
    expect((await handler.read(shCtx, 'h-sh'))!.fields).toEqual(returned);
  } finally {
    await shCtx.http.close();
    await sh.stop();
  }
});

test('OrganizationEntitlements reads every attribute camelCased', async () => {
  const ds = dataSourceHandler('platform.OrganizationEntitlements');
  const { outputs } = await handler.create(ctx, spec({ name: 'h-ent' }));
  await fx.call('PATCH', '/__admin/organizations/h-ent/entitlement-set', { agents: false, 'run-task-limit': 10 });
  const out = await ds.read(ctx, { organization: 'h-ent' });
  expect(out.id).toBe(outputs!.externalId);
  expect(out).toMatchObject({ agents: false, runTaskLimit: 10, auditLogging: true, versionedPolicySetLimit: null });
  expect(Object.keys(out)).toHaveLength(1 + 19 + 8);
  await expect(ds.read(ctx, { organization: 'h-none' })).rejects.toThrow(/404/);
});
