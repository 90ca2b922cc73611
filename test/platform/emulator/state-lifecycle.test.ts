import { PlatformEmulator } from '../../../lib/platform/emulator/platform-emulator';
import { admin, ADMIN_TOKEN, noCodeDoc, oauthClientDoc, PlatformFixture, seedOrg, workspaceDoc } from '../helpers';

let fx: PlatformFixture;
beforeAll(async () => { fx = await PlatformFixture.start({ upgradeStepMs: 0 }); });
afterAll(async () => { await fx.stop(); });

test('a pool that is the organization default cannot be deleted (422) until the mode changes', async () => {
  await fx.createOrg('st-def');
  const pool = (await fx.api('POST', '/organizations/st-def/agent-pools', { data: { type: 'agent-pools', attributes: { name: 'p' } } })).body.data;
  const org = (attrs: Record<string, unknown>) => fx.api('PATCH', '/organizations/st-def', { data: { type: 'organizations', attributes: attrs } });
  expect((await org({ 'default-execution-mode': 'agent', 'default-agent-pool-id': pool.id })).status).toBe(200);
  const refused = await fx.api('DELETE', `/agent-pools/${pool.id}`);
  expect(refused.status).toBe(422);
  expect(refused.body.errors[0].detail).toMatch(/default agent pool/);
  expect((await org({ 'default-execution-mode': 'remote' })).status).toBe(200);
  expect((await fx.api('DELETE', `/agent-pools/${pool.id}`)).status).toBe(204);
});

test('destroying an organization removes everything it owns', async () => {
  const { project, module } = await seedOrg(fx, 'st-gone');
  await fx.api('POST', '/organizations/st-gone/oauth-clients', oauthClientDoc({}, [project.id]));
  const pool = (await fx.api('POST', '/organizations/st-gone/agent-pools', { data: { type: 'agent-pools', attributes: { name: 'p' } } })).body.data;
  await admin(fx, 'POST', `/agent-pools/${pool.id}/agents`, {});
  const mod = (await fx.api('POST', '/organizations/st-gone/no-code-modules', noCodeDoc(module.id, { enabled: true }))).body.data;
  const ws = (await fx.api('POST', `/no-code-modules/${mod.id}/workspaces`, workspaceDoc('w', project.id))).body.data;
  await fx.api('POST', `/no-code-modules/${mod.id}/workspaces/${ws.id}/upgrade`, workspaceDoc('w', project.id));
  expect((await fx.api('DELETE', '/organizations/st-gone')).status).toBe(204);
  const s = fx.emulator.snapshot() as any;
  const orgIds = new Set(Object.keys(s.organizations));
  for (const family of ['agentPools', 'projects', 'workspaces', 'oauthClients', 'registryModules', 'noCodeModules']) {
    for (const r of Object.values(s[family]) as any[]) expect([family, orgIds.has(r.organizationId)]).toEqual([family, true]);
  }
  expect(Object.values(s.agents).some((a: any) => a.poolId === pool.id)).toBe(false);
  expect(Object.values(s.upgradeRuns).some((r: any) => r.workspaceId === ws.id)).toBe(false);
  expect(Object.values(s.variableOptions).some((o: any) => o.noCodeModuleId === mod.id)).toBe(false);
});

test('snapshot and restore carry every family; an older snapshot without them restores empty families', async () => {
  const { project, module } = await seedOrg(fx, 'st-snap');
  const c = (await fx.api('POST', '/organizations/st-snap/oauth-clients', oauthClientDoc({}, [project.id]))).body.data;
  const mod = (await fx.api('POST', '/organizations/st-snap/no-code-modules', noCodeDoc(module.id, { enabled: true }))).body.data;
  const copy = new PlatformEmulator({ adminToken: ADMIN_TOKEN, rateLimit: 0 });
  copy.restore(fx.emulator.snapshot());
  expect(copy.snapshot()).toEqual(fx.emulator.snapshot());
  const old = JSON.parse(JSON.stringify(fx.emulator.snapshot()));
  for (const k of ['oauthClients', 'noCodeModules', 'agents', 'upgradeRuns', 'dataRetentionPolicies', 'upgradeStepMs']) delete old[k];
  const older = new PlatformEmulator({ adminToken: ADMIN_TOKEN, rateLimit: 0 });
  older.restore(old);
  const restored = older.snapshot() as any;
  expect(restored.oauthClients).toEqual({});
  expect(restored.upgradeStepMs).toBe(500);
  expect(c.id).toMatch(/^oc-/);
  expect(mod.id).toMatch(/^nocode-/);
});
