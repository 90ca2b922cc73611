import { TerraformStack } from 'cdktf';
import * as mesh from '../../lib/mesh';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// End to end through the real CLI (dist/) against the emulator over HTTP.
describe('mesh constructs through the CLI', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const api = async (path: string) => {
    const r = await fetch(`${world.env.MESH_HTTP_ADDR}${path}`, { headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! } });
    return { status: r.status, body: r.status === 200 ? await r.json() as any : await r.text() };
  };

  /** Declared routers first: the ordering comes from the constructs, not from the app. */
  const build = (o: { weights: [number, number]; timeout: string; webProtocol?: mesh.MeshProtocol }) => synthApp((st: TerraformStack) => {
    new mesh.ServiceRouter(st, 'web-router', { name: 'web', routes: [{ match: { http: { pathPrefix: '/admin' } }, destination: { service: 'admin', requestTimeout: '30s' } }] });
    new mesh.ServiceSplitter(st, 'web-split', { name: 'web', splits: [{ weight: o.weights[0], serviceSubset: 'v1' }, { weight: o.weights[1], serviceSubset: 'v2' }] });
    new mesh.ServiceResolver(st, 'web-resolver', {
      name: 'web', connectTimeout: o.timeout, subsets: { v1: { filter: 'Service.Meta.version == v1' }, v2: { filter: 'Service.Meta.version == v2' } },
      failover: { '*': { datacenters: ['dc2'] } },
    });
    new mesh.ServiceDefaults(st, 'web-defaults', { name: 'web', protocol: o.webProtocol ?? mesh.MeshProtocol.HTTP });
    new mesh.ServiceDefaults(st, 'admin-defaults', { name: 'admin', protocol: mesh.MeshProtocol.HTTP });
    new mesh.ProxyDefaults(st, 'proxy', { meshGateway: { mode: mesh.MeshGatewayMode.LOCAL } });
    new mesh.DiscoveryChain(st, 'web-chain', { service: 'web' });
  });

  test('plan shows the traffic, apply orders the writes, no drift, update, refused break, destroy', async () => {
    const v1 = build({ weights: [90, 10], timeout: '1m' });
    let r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/web-router \(mesh\.ServiceRouter\) will be created/);
    expect(r.stdout).toContain('traffic web: split web added: v1.web.default.dc1 90%, v2.web.default.dc1 10%');
    expect(r.stdout).toContain('traffic web: route added: path prefix /admin -> admin.default.dc1 (timeout 30s)');

    r = await cliAsync(['apply', '--synth-dir', v1, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const chain = await api('/v1/discovery-chain/web');
    expect(chain.body.Chain.StartNode).toBe('router:web');
    expect(chain.body.Chain.Nodes['resolver:v1.web.default.dc1'].Resolver).toMatchObject({ ConnectTimeout: '1m0s', Failover: { Targets: ['v1.web.default.dc2'] } });
    expect(chain.body.Chain.Targets['v1.web.default.dc2'].MeshGateway).toEqual({ Mode: 'local' });

    r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
    // '60s' is the same duration as '1m': no change.
    const v2 = build({ weights: [50, 50], timeout: '60s' });
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode', '--json'], world.env);
    expect(r.status).toBe(2);
    const doc = JSON.parse(r.stdout);
    const changed = doc.stacks[0].changes.filter((c: { action: string }) => !['noop', 'read'].includes(c.action)).map((c: { address: string }) => c.address);
    expect(changed).toEqual(['web-split']);
    expect(doc.stacks[0].notes).toEqual(expect.arrayContaining(['traffic web: split web: v1.web.default.dc1 90% -> 50%']));
    r = await cliAsync(['apply', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await api('/v1/config/service-splitter/web')).body.Splits).toEqual([{ Weight: 50, ServiceSubset: 'v1' }, { Weight: 50, ServiceSubset: 'v2' }]);

    // A change that breaks the chain fails the plan before anything is written.
    const broken = build({ weights: [50, 50], timeout: '60s', webProtocol: mesh.MeshProtocol.TCP });
    r = await cliAsync(['apply', '--synth-dir', broken, '--auto-approve'], world.env);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toContain('traffic web: the planned change breaks the discovery chain: discovery chain "web" uses inconsistent protocols');
    expect((await api('/v1/config/service-defaults/web')).body.Protocol).toBe('http');

    r = await cliAsync(['destroy', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const kind of ['service-router', 'service-splitter', 'service-resolver', 'service-defaults', 'proxy-defaults']) {
      expect((await api(`/v1/config/${kind}`)).body).toEqual([]);
    }
  });

  test('import an entry written outside converge', async () => {
    await fetch(`${world.env.MESH_HTTP_ADDR}/v1/config`, {
      method: 'PUT', headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! },
      body: JSON.stringify({ Kind: 'service-defaults', Name: 'billing', Protocol: 'grpc' }),
    });
    const app = synthApp((st) => { new mesh.ServiceDefaults(st, 'billing', { name: 'billing', protocol: mesh.MeshProtocol.GRPC }); }, 'imp');
    let r = await cliAsync(['import', '--synth-dir', app, 'billing', 'service-defaults/billing'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });
});
