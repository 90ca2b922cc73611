import * as path from 'path';
import { cliAsync, ROOT, startWorld, TestWorld } from '../support/harness';


// examples/mesh-canary run as a user would: the real CLI (dist/) in the example's directory, against the emulator.
describe('examples/mesh-canary', () => {
  const dir = path.join(ROOT, 'examples', 'mesh-canary');
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const entry = async (kind: string, name: string) => {
    const r = await fetch(`${world.env.MESH_HTTP_ADDR}/v1/config/${kind}/${name}`, { headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! } });
    return { status: r.status, body: r.status === 200 ? await r.json() as any : undefined };
  };
  const run = (...args: string[]) => cliAsync(args, world.env, dir);

  test('plan, apply, no-op plan, destroy', async () => {
    let r = await run('plan', '--detailed-exitcode');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    for (const a of ['web-defaults', 'web-resolver', 'web-splitter', 'web-router']) expect(r.stdout).toMatch(new RegExp(`${a} \\(mesh\\.\\w+\\) will be created`));
    expect(r.stdout).toContain('traffic web: protocol tcp -> http');

    r = await run('apply', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await entry('service-defaults', 'web')).body).toMatchObject({ Protocol: 'http' });
    const resolver = (await entry('service-resolver', 'web')).body;
    expect(resolver).toMatchObject({ DefaultSubset: 'v1', Failover: { '*': { Datacenters: ['dc2'] } } });
    expect(Object.keys(resolver.Subsets).sort()).toEqual(['v1', 'v2']);
    expect((await entry('service-splitter', 'web')).body.Splits).toEqual([
      expect.objectContaining({ Weight: 90, ServiceSubset: 'v1' }), expect.objectContaining({ Weight: 10, ServiceSubset: 'v2' }),
    ]);
    expect((await entry('service-router', 'web')).body.Routes[0]).toMatchObject({ Destination: { ServiceSubset: 'v2' } });
    // The compiled chain: the header route to the canary, then the split, then failover to dc2.
    const chain = await fetch(`${world.env.MESH_HTTP_ADDR}/v1/discovery-chain/web`, { headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! } });
    const targets = Object.keys(((await chain.json()) as any).Chain.Targets).sort();
    expect(targets).toEqual(expect.arrayContaining(['v1.web.default.dc1', 'v2.web.default.dc1']));

    // Nothing to change (the discovery chain, a data source, is read on every plan).
    r = await run('plan', '--detailed-exitcode');
    expect(r.stdout).toMatch(/Plan: 0 to add, 0 to change, 0 to replace, 0 to destroy/);
    expect(r.status).toBe(0);

    r = await run('destroy', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const kind of ['service-defaults', 'service-resolver', 'service-splitter', 'service-router']) expect((await entry(kind, 'web')).status).toBe(404);
  });
});
