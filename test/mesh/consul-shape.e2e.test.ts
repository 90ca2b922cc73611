import { TerraformStack } from 'cdktf';
import * as mesh from '../../lib/mesh';
import { MeshEmulator } from '../../lib/mesh/emulator/mesh-emulator';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

/**
 * Through the real CLI against the emulator answering as Consul 1.16 Community Edition
 * (`meshShape: 'consul-1.16'`): what a real Consul made converge fail at (issue 21), without the binary.
 */
describe('mesh against the Consul 1.16 shape', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld({ meshShape: 'consul-1.16' }); });
  afterAll(async () => { await world.stop(); });

  const consulEnv = (extra: Record<string, string> = {}) => ({ ...world.env, MESH_TOKEN_HEADER: 'X-Consul-Token', ...extra });
  const build = (weights: [number, number], o: { provider?: boolean } = {}) => synthApp((st: TerraformStack) => {
    const provider = o.provider ? new mesh.MeshProvider(st, 'mesh', { tokenHeader: mesh.MeshTokenHeader.AUTHORIZATION_BEARER }) : undefined;
    new mesh.ServiceDefaults(st, 'web-defaults', { name: 'web', protocol: mesh.MeshProtocol.HTTP, provider });
    new mesh.ServiceResolver(st, 'web-resolver', { name: 'web', subsets: { v1: { filter: 'Service.Meta.version == v1' }, v2: { filter: 'Service.Meta.version == v2' } }, provider });
    new mesh.ServiceSplitter(st, 'web-split', { name: 'web', splits: [{ weight: weights[0], serviceSubset: 'v1' }, { weight: weights[1], serviceSubset: 'v2' }], provider });
    new mesh.DiscoveryChain(st, 'web-chain', { service: 'web', provider });
  });

  test('plan, apply and a no-op plan: no ns, no Namespace, entries with a uint64 Hash decoded, 66.667 stored and compared as 66.67', async () => {
    const app = build([66.667, 33.333]);
    let r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], consulEnv());
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(r.stdout).toContain('splits[0].weight = 66.67');
    // The traffic lines name what the server answers: partitions in target ids and node names.
    expect(r.stdout).toContain('traffic web: split web.default.default added: v1.web.default.default.dc1 66.67%, v2.web.default.default.dc1 33.33%');
    r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], consulEnv());
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const raw = await fetch(`${world.env.MESH_HTTP_ADDR}/v1/config/service-splitter/web`, { headers: { 'X-Consul-Token': world.env.MESH_HTTP_TOKEN! } });
    const text = await raw.text();
    expect(text).toMatch(/"Hash":\d+,/);
    expect(text).not.toContain('Namespace');
    expect(JSON.parse(text).Splits.map((s: { Weight: number }) => s.Weight)).toEqual([66.67, 33.33]);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], consulEnv());
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  test('the token header: MESH_TOKEN_HEADER and the provider prop choose it; a wrong value names the setting, never the token', async () => {
    const app = build([50, 50]);
    // The management token sent as X-Consul-Token, then as Authorization: Bearer (the provider's prop).
    expect((await cliAsync(['plan', '--synth-dir', app], consulEnv())).status).toBe(0);
    expect((await cliAsync(['plan', '--synth-dir', build([50, 50], { provider: true })], consulEnv({ MESH_TOKEN_HEADER: '' }))).status).toBe(0);
    const bad = await cliAsync(['plan', '--synth-dir', app], consulEnv({ MESH_TOKEN_HEADER: 'X-Vault-Token' }));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('MESH_TOKEN_HEADER is "X-Vault-Token"');
    expect(bad.stderr).not.toContain(world.env.MESH_HTTP_TOKEN!);
  });

  test('a list the token\'s ACL filtered is not read as "deleted outside converge": the token cannot see it', async () => {
    const app = synthApp((st: TerraformStack) => {
      new mesh.ServiceDefaults(st, 'a', { name: 'alpha', protocol: mesh.MeshProtocol.HTTP });
      new mesh.ServiceDefaults(st, 'b', { name: 'beta', protocol: mesh.MeshProtocol.HTTP });
    });
    expect((await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], consulEnv())).status).toBe(0);
    const emu = world.emulator.apis.mesh as MeshEmulator;
    const limited = emu.createToken({ serviceRead: ['alpha'] }).secretId;
    const r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], consulEnv({ MESH_HTTP_TOKEN: limited }));
    expect(r.stdout + r.stderr).not.toMatch(/deleted outside|will be created/);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/lacks permission 'service:read' on "beta"/);
  });
});

test('MeshClient.connect sends the token in the header it is given', async () => {
  const { MeshClient } = await import('../../lib/mesh/client/mesh-client');
  const seen: (string | undefined)[] = [];
  const http = await import('http');
  const server = http.createServer((req, res) => {
    seen.push(req.headers['x-consul-token'] as string | undefined ?? req.headers.authorization ?? req.headers['x-mesh-token'] as string | undefined);
    res.setHeader('content-type', 'application/json');
    res.end('[]');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  for (const tokenHeader of ['X-Consul-Token', 'Authorization', undefined] as const) {
    const c = MeshClient.connect({ address, token: 't0k', tokenHeader });
    await c.listConfigEntries('service-defaults');
    await c.close();
  }
  server.close();
  expect(seen).toEqual(['t0k', 'Bearer t0k', 't0k']);
});

test('converge emulator --mesh-shape takes spec or consul-1.16 and names the flag otherwise', async () => {
  const { cli } = await import('../support/harness');
  const r = cli(['emulator', '--mesh-shape', 'consul-1.17', '--mesh-port', '0', '--platform-port', '0', '--secrets-port', '0'], { PATH: process.env.PATH, HOME: process.env.HOME });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('--mesh-shape must be spec or consul-1.16 (got consul-1.17)');
});

test('converge emulator --mesh-shape consul-1.16 serves the 1.16 shape', async () => {
  const { spawn } = await import('child_process');
  const { CLI } = await import('../support/harness');
  const child = spawn(CLI, ['emulator', '--mesh-shape', 'consul-1.16', '--mesh-port', '0', '--platform-port', '0', '--secrets-port', '0'],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  try {
    let out = '';
    const env = await new Promise<Record<string, string>>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const addr = /MESH_HTTP_ADDR=(\S+)/.exec(out);
        const token = /MESH_HTTP_TOKEN=(\S+)/.exec(out);
        if (addr && token) resolve({ addr: addr[1], token: token[1] });
      });
      child.on('exit', (code) => reject(new Error(`emulator exited ${code}: ${out}`)));
    });
    const r = await fetch(`${env.addr}/v1/config/service-defaults?ns=default`, { headers: { 'X-Consul-Token': env.token } });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('Namespaces are a Consul Enterprise feature');
    const listed = await fetch(`${env.addr}/v1/config/service-defaults`, { headers: { 'X-Consul-Token': env.token } });
    expect(listed.headers.get('x-consul-index')).toBe('1');
  } finally {
    child.kill('SIGTERM');
  }
});
