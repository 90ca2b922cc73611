import * as http from 'http';
import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { ApiEmulator, EmuRequest, EmuResponse } from '../../../lib/core/emulator-kit/types';
import { ApiError } from '../../../lib/core/http/api-error';
import { PlatformClient } from '../../../lib/platform/client/platform-client';
import { PlatformEmulator } from '../../../lib/platform/emulator/platform-emulator';
import { UPGRADE_COMPLETED } from '../../../lib/platform/no-code/no-code.emulator';
import { ADMIN_TOKEN, admin, PlatformFixture, seedOrg } from '../helpers';
import { FakeClock } from '../../support/fake-clock';

/** Records the raw request paths (still percent-encoded) and hands every request to the platform emulator. */
class Recorder implements ApiEmulator {
  public readonly name = 'platform';
  public readonly rawPaths: string[] = [];
  public throttleNext = 0;
  constructor(public readonly inner: PlatformEmulator) {}
  public handle(req: EmuRequest): EmuResponse {
    this.rawPaths.push(req.rawPath);
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return { status: 429, headers: { 'X-RateLimit-Reset': '0.05', 'X-RateLimit-Limit': '30' }, contentType: 'application/vnd.api+json',
        body: { errors: [{ status: 429, title: 'Too many requests', detail: 'You have exceeded the API\'s rate limit.' }] } };
    }
    return this.inner.handle(req);
  }
  public mutates(req: EmuRequest): boolean { return this.inner.mutates(req); }
  public snapshot(): unknown { return this.inner.snapshot(); }
  public restore(d: unknown): void { this.inner.restore(d); }
}

let fx: PlatformFixture;
let client: PlatformClient;
let seeded: { project: any; workspace: any; module: any };
beforeAll(async () => {
  fx = await PlatformFixture.start({ edition: 'self-hosted' });
  client = PlatformClient.create({ address: fx.address, token: ADMIN_TOKEN, rateLimit: 0 });
  seeded = await seedOrg(fx, 'fam');
});
afterAll(async () => {
  await client.close();
  await fx.stop();
});

const base = {
  serviceProvider: 'provider_a' as const, key: 'k', httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com',
  oauthTokenString: 'tok',
};

describe('OAuth clients', () => {
  test('create, show with includes resolved, update, attach/detach, destroy', async () => {
    const c = await client.oauthClients.create('fam', { ...base, name: 'main', projects: [seeded.project.id] });
    expect(c).toMatchObject({ type: 'oauth-clients', name: 'main', organizationScoped: true, serviceProviderDisplayName: 'Provider A' });
    expect(c.id).toMatch(/^oc-/);
    expect(c.organization).toEqual({ id: 'fam', type: 'organizations' });
    expect(c.projects).toEqual([{ id: seeded.project.id, type: 'projects' }]);
    const shown = await client.oauthClients.show(c.id, ['oauth_tokens', 'projects']);
    expect(shown!.projects[0]).toMatchObject({ id: seeded.project.id, name: 'apps' });
    expect(shown!.oauthTokens[0]).toMatchObject({ type: 'oauth-tokens', hasSshKey: false });
    const other = await admin(fx, 'POST', '/organizations/fam/projects', { name: 'other' });
    await client.oauthClients.attachProjects(c.id, [other.id]);
    expect((await client.oauthClients.show(c.id))!.projects.map((p) => p.id)).toEqual([seeded.project.id, other.id]);
    await client.oauthClients.detachProjects(c.id, [seeded.project.id]);
    const err = await client.oauthClients.attachProjects(c.id, ['prj-none']).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    const upd = await client.oauthClients.update(c.id, { name: null, organizationScoped: false, projects: [] });
    expect(upd).toMatchObject({ name: null, organizationScoped: false, projects: [] });
    expect(await client.oauthClients.destroy(c.id)).toBe(true);
    expect(await client.oauthClients.destroy(c.id)).toBe(false);
    expect(await client.oauthClients.show(c.id)).toBeUndefined();
  });

  test('list: unpaginated form and the page iterator', async () => {
    await fx.createOrg('fam-list');
    for (let i = 0; i < 5; i++) await client.oauthClients.create('fam-list', { ...base, name: `c${i}` });
    const all = await client.oauthClients.list('fam-list');
    expect(all.items.map((c) => c.name)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(all.pagination).toBeUndefined();
    const seen: string[] = [];
    for await (const c of client.oauthClients.iterate('fam-list', 2)) seen.push(c.name!);
    expect(seen).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect((await client.oauthClients.list('fam-list', { number: 3, size: 2 })).pagination).toMatchObject({ 'current-page': 3, 'next-page': null });
  });
});

describe('agent pools and agents', () => {
  test('create, list with q/sort/filter and status counts, show with workspaces, update, agents, delete', async () => {
    await fx.createOrg('fam-ap');
    const ws = await admin(fx, 'POST', '/organizations/fam-ap/workspaces', { name: 'api' });
    const pool = await client.agentPools.create('fam-ap', { name: 'onprem', organizationScoped: false, allowedWorkspaces: [ws.id] });
    expect(pool).toMatchObject({ name: 'onprem', organizationScoped: false, agentCount: 0, allowedWorkspaces: [{ id: ws.id, type: 'workspaces' }] });
    const page = await client.agentPools.list('fam-ap', { q: 'on', sort: '-created-at', allowedWorkspaceName: 'api' });
    expect(page.items.map((p) => p.id)).toEqual([pool.id]);
    expect(page.statusCounts).toEqual({ total: 1, matching: 1 });
    expect((await client.agentPools.list('fam-ap', { allowedWorkspaceName: 'other' })).statusCounts).toEqual({ total: 1, matching: 0 });
    const iterated: string[] = [];
    for await (const p of client.agentPools.iterate('fam-ap')) iterated.push(p.id);
    expect(iterated).toEqual([pool.id]);
    expect((await client.agentPools.update(pool.id, { name: 'renamed' })).organizationScoped).toBe(true);
    const busy = await admin(fx, 'POST', `/agent-pools/${pool.id}/agents`, { status: 'busy' });
    const old = await admin(fx, 'POST', `/agent-pools/${pool.id}/agents`, { status: 'exited', lastPingAt: '2020-01-01T00:00:00Z' });
    expect((await client.agentPools.agents(pool.id)).items.map((a) => a.id)).toEqual([busy.id, old.id]);
    const recent: string[] = [];
    for await (const a of client.agentPools.iterateAgents(pool.id, { lastPingSince: new Date('2024-01-01') }, 1)) recent.push(a.id);
    expect(recent).toEqual([busy.id]);
    expect(await client.agentPools.showAgent(busy.id)).toMatchObject({ status: 'busy', ipAddress: '10.0.0.1' });
    const refused = await client.agentPools.deleteAgent(busy.id).catch((e) => e);
    expect(refused.status).toBe(412);
    expect(refused.apiMessages[0]).toContain('Agent is not deletable');
    expect(await client.agentPools.deleteAgent(old.id)).toBe(true);
    expect(await client.agentPools.deleteAgent(old.id)).toBe(false);
    expect(await client.agentPools.destroy(pool.id)).toBe(true);
    expect(await client.agentPools.show(pool.id)).toBeUndefined();
  });
});

describe('no-code modules (client and emulator on one fake clock: the upgrade polls and times out by it)', () => {
  // The emulator's upgrade steps and the client's polls and deadline go by the same clock, which
  // moves only when the client sleeps (its polls, and its pacing at the platform's published 30
  // requests a second, a few ms each): no real time passes and every outcome is fixed.
  let clock: FakeClock;
  let nfx: PlatformFixture;
  let nc: PlatformClient;
  let ns: { project: any; workspace: any; module: any };
  beforeAll(async () => {
    clock = new FakeClock();
    nfx = await PlatformFixture.start({ upgradeStepMs: 1000, edition: 'self-hosted', clock });
    nc = PlatformClient.create({ address: nfx.address, token: ADMIN_TOKEN, rateLimit: 0, clock });
    ns = await seedOrg(nfx, 'fam');
  });
  afterAll(async () => {
    await nc.close();
    await nfx.stop();
  });

  /** The polls among the client's sleeps since the `from`th (its pacing sleeps are under 34ms). */
  const polls = (from: number) => clock.sleeps.slice(from).filter((ms) => ms >= 1000);

  /** A workspace on a module at its latest version 1.0.0, the module then pinned to the new version `next` (an upgrade available). */
  async function upgradable(org: string, next: { version: string; failing?: boolean }) {
    await nfx.createOrg(org);
    const p = await admin(nfx, 'POST', `/organizations/${org}/projects`, { name: 'p' });
    const reg = await admin(nfx, 'POST', `/organizations/${org}/registry-modules`, { name: 'm', provider: 'aws', versions: ['1.0.0'] });
    const mod = await nc.noCodeModules.enable(org, { registryModuleId: reg.id, enabled: true });
    const ws = await nc.noCodeModules.createWorkspace(mod.id, { name: 'w', projectId: p.id });
    await admin(nfx, 'POST', `/registry-modules/${reg.id}/versions`, next);
    await nc.noCodeModules.update(mod.id, { versionPin: next.version });
    return { mod, ws };
  }

  test('enable, read with options, update options by id, create a workspace, upgrade sequence with the plain-text confirm', async () => {
    const mod = await nc.noCodeModules.enable('fam', {
      registryModuleId: ns.module.id, enabled: true, versionPin: '1.0.0',
      variableOptions: [{ variableName: 'size', variableType: 'string', options: ['s', 'l'] }],
    });
    expect(mod).toMatchObject({ enabled: true, versionPin: '1.0.0', registryModule: { id: ns.module.id, type: 'registry-modules' } });
    const read = await nc.noCodeModules.show(mod.id, true);
    expect(read!.variableOptions[0]).toMatchObject({ variableName: 'size', options: ['s', 'l'] });
    const optId = read!.variableOptions[0].id;
    const upd = await nc.noCodeModules.update(mod.id, { variableOptions: [{ id: optId, variableName: 'size', variableType: 'string', options: ['s', 'm', 'l'] }] });
    expect(upd.variableOptions).toEqual([{ id: optId, type: 'variable-options' }]);
    const ws = await nc.noCodeModules.createWorkspace(mod.id, {
      name: 'fam-ws', projectId: ns.project.id, vars: [{ key: 'size', value: 'm', category: 'engine' }],
    });
    expect(ws).toMatchObject({ name: 'fam-ws', source: 'platform-module', noCodeUpgradeAvailable: false, sourceModuleId: 'private/fam/bucket/aws/1.0.0' });
    await nc.noCodeModules.update(mod.id, { versionPin: '1.1.0' });
    expect((await nc.noCodeModules.showWorkspace(ws.id))!.noCodeUpgradeAvailable).toBe(true);
    const run = await nc.noCodeModules.initiateUpgrade(mod.id, ws.id, [{ key: 'size', value: 'l', category: 'engine' }]);
    expect(run.status).toBe('pending');
    const status = await nc.noCodeModules.upgradeStatus(mod.id, ws.id, run.id);
    expect(status!.workspace).toEqual({ id: ws.id, type: 'workspaces' });
    // No time has passed on the clock: the run is not planned yet, and confirming it is refused.
    const early = await nc.noCodeModules.confirmUpgrade(mod.id, ws.id, run.id).catch((e) => e);
    expect(early.status).toBe(409);
    const sleepsBefore = clock.sleeps.length;
    const done = await nc.noCodeModules.upgrade(mod.id, ws.id, [{ key: 'size', value: 'l', category: 'engine' }], { pollMs: 1000, timeoutMs: 10_000 });
    expect(done.message).toBe(UPGRADE_COMPLETED);
    expect(done.run.status).toBe('planned');
    // Planned after three steps of 1s: the client polled once a second on the clock, three times.
    expect(polls(sleepsBefore)).toEqual([1000, 1000, 1000]);
    expect((await nc.noCodeModules.showWorkspace(ws.id))!.sourceModuleId).toBe('private/fam/bucket/aws/1.1.0');
    expect(await nc.noCodeModules.deleteWorkspace(ws.id)).toBe(true);
    expect(await nc.noCodeModules.showWorkspace(ws.id)).toBeUndefined();
  });

  test('a failing plan ends the sequence with a clear error', async () => {
    const { mod, ws } = await upgradable('fam-fail', { version: '2.0.0', failing: true });
    await expect(nc.noCodeModules.upgrade(mod.id, ws.id, [], { pollMs: 1000, timeoutMs: 10_000 })).rejects.toThrow(/ended errored/);
  });

  test('a plan that takes longer than the timeout on the clock is reported; one within it is confirmed', async () => {
    const { mod, ws } = await upgradable('fam-slow', { version: '2.0.0' });
    // Each step 2s: planned after 6s on the clock.
    await admin(nfx, 'PATCH', '/settings', { upgradeStepMs: 2000 });
    try {
      const sleepsBefore = clock.sleeps.length;
      const start = clock.now();
      await expect(nc.noCodeModules.upgrade(mod.id, ws.id, [], { pollMs: 1000, timeoutMs: 5000 }))
        .rejects.toThrow(/did not finish within 5s \(run run-\S+ is planning: /);
      // Polled every second until the deadline, then gave up: the timeout passed on the clock, not the plan.
      expect(polls(sleepsBefore)).toEqual([1000, 1000, 1000, 1000, 1000]);
      expect(clock.now() - start).toBeGreaterThanOrEqual(5000);
      expect(clock.now() - start).toBeLessThan(6000);
      const done = await nc.noCodeModules.upgrade(mod.id, ws.id, [], { pollMs: 1000, timeoutMs: 7000 });
      expect(done.run.status).toBe('planned');
      expect(done.message).toBe(UPGRADE_COMPLETED);
    } finally {
      await admin(nfx, 'PATCH', '/settings', { upgradeStepMs: 1000 });
    }
  });
});

describe('self-hosted', () => {
  test('module producers and the data retention policy', async () => {
    await fx.createOrg('fam-prod');
    await admin(fx, 'POST', '/organizations/fam/module-producers', { producer: 'fam-prod' });
    const producers = await client.selfHosted.moduleProducers('fam');
    expect(producers.items).toEqual([expect.objectContaining({ id: 'fam-prod', name: 'fam-prod', externalId: expect.stringMatching(/^org-/) })]);
    expect((await client.selfHosted.dataRetentionPolicy('fam'))!.type).toBe('data-retention-policy-dont-deletes');
    expect(await client.selfHosted.setDataRetentionPolicy('fam', 14)).toMatchObject({ type: 'data-retention-policy-delete-olders', deleteOlderThanNDays: 14 });
    expect((await client.selfHosted.dataRetentionPolicy('fam'))!.deleteOlderThanNDays).toBe(14);
    expect(await client.selfHosted.deleteDataRetentionPolicy('fam')).toBe(true);
    expect(await client.selfHosted.dataRetentionPolicy('none')).toBeUndefined();
  });
});

test('brackets are percent-encoded on the wire; a 429 with X-RateLimit-Reset is waited out', async () => {
  const rec = new Recorder(new PlatformEmulator({ adminToken: ADMIN_TOKEN, rateLimit: 0 }));
  const served = await ServedApi.start(rec, { port: 0 });
  const c = PlatformClient.create({ address: served.address, token: ADMIN_TOKEN, rateLimit: 0 });
  try {
    await c.organizations.create({ name: 'enc', email: 'a@b.io' });
    rec.throttleNext = 1;
    const page = await c.agentPools.list('enc', { allowedWorkspaceName: 'web', sort: '-name' }, { number: 1, size: 5 });
    expect(page.items).toEqual([]);
    expect(c.http.stats.retries).toBe(1);
    expect(rec.rawPaths.slice(-2)).toEqual(['/api/v2/organizations/enc/agent-pools', '/api/v2/organizations/enc/agent-pools']);
  } finally {
    await c.close();
    await served.stop();
  }
  // The query string as sent: a bare HTTP server records the request line.
  const urls: string[] = [];
  const server = http.createServer((req, res) => {
    urls.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/vnd.api+json' });
    res.end(JSON.stringify({ data: [], meta: { pagination: { 'next-page': null }, 'status-counts': { total: 0, matching: 0 } } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const bare = PlatformClient.create({ address: `http://127.0.0.1:${(server.address() as any).port}`, token: 't', rateLimit: 0 });
  try {
    await bare.agentPools.list('o', { allowedWorkspaceName: 'web' }, { number: 2, size: 5 });
    for await (const a of bare.agentPools.iterateAgents('apool-1', { lastPingSince: '2024-01-01T00:00:00Z' })) void a;
    expect(urls[0]).toBe('/api/v2/organizations/o/agent-pools?filter%5Ballowed_workspaces%5D%5Bname%5D=web&page%5Bnumber%5D=2&page%5Bsize%5D=5');
    expect(urls[1]).toBe('/api/v2/agent-pools/apool-1/agents?filter%5Blast-ping-since%5D=2024-01-01T00%3A00%3A00Z&page%5Bnumber%5D=1&page%5Bsize%5D=100');
  } finally {
    await bare.close();
    await new Promise((r) => server.close(r));
  }
});

test('names and ids that would address another object are refused before any request', async () => {
  const later = <T>(f: () => Promise<T>) => (async () => f())();
  await expect(later(() => client.oauthClients.list('..'))).rejects.toThrow(/cannot be used as a URL path segment/);
  await expect(later(() => client.agentPools.show('.'))).rejects.toThrow(/cannot be used as a URL path segment/);
  await expect(later(() => client.noCodeModules.showWorkspaceByName('fam', ''))).rejects.toThrow(/cannot be used as a URL path segment/);
  await expect(client.selfHosted.dataRetentionPolicy('..')).rejects.toThrow(/cannot be used as a URL path segment/);
});
