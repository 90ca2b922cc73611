import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { allFiles, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// Each API's address is checked once per run before any 404 is trusted as "absent": a wrong
// address stops converge before it plans anything, naming the variable and the URL.
describe('API address check', () => {
  let world: TestWorld;
  let dir: string;
  let always404: http.Server;
  let always404Url: string;

  beforeAll(async () => {
    world = await startWorld();
    dir = synthApp((stack) => {
      new Organization(stack, 'org', { name: 'addr-check', email: 'ops@addr.io' });
      new KvSecret(stack, 'kv', { path: 'addr/check', data: { a: '1' } });
      new ServiceDefaults(stack, 'svc', { name: 'addr-svc', protocol: MeshProtocol.HTTP });
    }, 'addr');
    always404 = http.createServer((req, res) => {
      // Under /ok/: a catch-all web page answering 200 to everything; else 404 to everything.
      if (req.url?.startsWith('/ok/')) { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>welcome</html>'); return; }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found\n');
    });
    await new Promise<void>((r) => always404.listen(0, '127.0.0.1', r));
    always404Url = `http://127.0.0.1:${(always404.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => always404.close(r));
    await world.stop();
  });

  const nothingWritten = async () => {
    expect(allFiles(world.env.CONVERGE_DIR!).filter((f) => path.basename(f.file) === 'state.json')).toEqual([]);
    const org = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/organizations/addr-check`, { headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}` } });
    expect(org.status).toBe(404);
    const kv = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/addr/check`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(kv.status).toBe(404);
    const svc = await fetch(`${world.env.MESH_HTTP_ADDR}/v1/config/service-defaults/addr-svc`, { headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! } });
    expect(svc.status).toBe(404);
  };

  test.each([
    ['PLATFORM_ADDRESS', '/api/v2', '/api/v2/ping'],
    ['SECRETS_ADDR', '/v1', '/v1/sys/health'],
    ['MESH_HTTP_ADDR', '/v1', '/v1/status/leader'],
  ])('%s ending in %s: apply stops before planning, naming the variable and the URL', async (variable, suffix, probe) => {
    const wrong = `${world.env[variable]}${suffix}`;
    const r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], { ...world.env, [variable]: wrong });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(variable);
    expect(r.stderr).toContain(`${wrong}${probe}`);
    expect(r.stderr).toContain(`without "${suffix}"`);
    expect(r.stdout).not.toMatch(/will be created|deleted outside/);
    await nothingWritten();
  });

  test.each(['PLATFORM_ADDRESS', 'SECRETS_ADDR', 'MESH_HTTP_ADDR'])('%s at a server answering 404 to everything', async (variable) => {
    const r = await cliAsync(['plan', '--synth-dir', dir], { ...world.env, [variable]: always404Url });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${variable} does not reach the`);
    expect(r.stderr).toContain(always404Url);
    await nothingWritten();
  });

  test.each(['PLATFORM_ADDRESS', 'SECRETS_ADDR', 'MESH_HTTP_ADDR'])('%s at a web server answering 200 to everything', async (variable) => {
    const r = await cliAsync(['plan', '--synth-dir', dir], { ...world.env, [variable]: `${always404Url}/ok` });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${variable} does not reach the`);
  });

  test('a refused connection names the URL and the variable', async () => {
    const closed = 'http://127.0.0.1:1';
    const r = await cliAsync(['plan', '--synth-dir', dir], { ...world.env, MESH_HTTP_ADDR: closed, CONVERGE_RETRIES: '1' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.stderr).toContain(`could not reach ${closed}: check MESH_HTTP_ADDR`);
  });

  test('an object under a path where nothing is mounted is an error, not an absent object', async () => {
    const d = synthApp((stack) => { new KvSecret(stack, 'kv', { mount: 'nomount', path: 'x/y', data: { a: '1' } }); }, 'unmounted');
    const r = await cliAsync(['plan', '--synth-dir', d], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('no handler for route');
    expect(r.stderr).toContain('no secrets engine is mounted at this path: check the construct\'s mount and SECRETS_ADDR');
    expect(fs.existsSync(path.join(world.env.CONVERGE_DIR!, 'stacks', 'unmounted', 'state.json'))).toBe(false);
  });

  test('a saved plan applied with a wrong address writes nothing, not even an intent', async () => {
    const planFile = path.join(world.dir, 'addr.plan');
    let r = await cliAsync(['plan', '--synth-dir', dir, '--out', planFile], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', planFile], { ...world.env, PLATFORM_ADDRESS: `${world.env.PLATFORM_ADDRESS}/api/v2` });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('PLATFORM_ADDRESS does not reach the platform API');
    await nothingWritten();
  });

  test('the right addresses pass the check (one probe per API per run)', async () => {
    const r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/Plan: 3 to add/);
  });
});
