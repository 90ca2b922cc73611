import { SecretValue } from '../../lib';
import * as mesh from '../../lib/mesh';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// The plan as a newcomer reads it: a created secret is "(sensitive)", a zero the API fills in shows
// the value it really uses, addresses sort naturally, `--compact` and `--quiet` for large plans, and
// a splitter or router on a tcp chain names the constructs and the fix.
describe('plan listing', () => {
  let world: TestWorld;
  const secret = 'pw-render-5f1c';
  beforeAll(async () => { world = await startWorld({}, { RENDER_PW: secret }); });
  afterAll(async () => { await world.stop(); });

  const app = (tcpSplitter = false) => synthApp((stack) => {
    for (const i of [10, 2, 1]) new KvSecret(stack, `bulk-${i}`, { path: `render/bulk-${i}`, data: { a: 'b' } });
    new KvSecret(stack, 'db', { path: 'render/db', data: { password: SecretValue.fromEnv('RENDER_PW') } });
    new mesh.ServiceResolver(stack, 'web-resolver', { name: 'web' });
    if (tcpSplitter) new mesh.ServiceSplitter(stack, 'web-split', { name: 'web', splits: [{ weight: 100 }] });
  });

  test('a create shows (sensitive); a filled-in default shows its value; addresses sort naturally', async () => {
    const r = await cliAsync(['plan', '--synth-dir', app()], world.env);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\+ data\.password = \(sensitive\)\n/);
    expect(r.stdout).not.toMatch(/sensitive, changed/);
    expect(r.stdout).not.toContain(secret);
    expect(r.stdout).toMatch(/\+ connectTimeout = "5s" \(the API's default\)/);
    const order = [...r.stdout.matchAll(/^ {2}\+ (\S+) \(/gm)].map((m) => m[1]);
    expect(order).toEqual(['bulk-1', 'bulk-2', 'bulk-10', 'db', 'web-resolver']);
  });

  test('--compact: one line per object and a summary per kind', async () => {
    const r = await cliAsync(['plan', '--synth-dir', app(), '--compact'], world.env);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.filter((l) => /^ {2}\+ +\S+ \(/.test(l))).toEqual([
      '  +   bulk-1 (secrets.KvSecret) will be created',
      '  +   bulk-2 (secrets.KvSecret) will be created',
      '  +   bulk-10 (secrets.KvSecret) will be created',
      '  +   db (secrets.KvSecret) will be created',
      '  +   web-resolver (mesh.ServiceResolver) will be created',
    ]);
    expect(r.stdout).not.toMatch(/ = /);
    expect(lines).toContain('  mesh.ServiceResolver: 1 to add');
    expect(lines).toContain('  secrets.KvSecret: 4 to add');
    expect(r.stdout).toMatch(/Plan: 5 to add, 0 to change, 0 to replace, 0 to destroy\./);
  });

  test('after apply: an update lists the changed paths (--compact) and a changed secret is (sensitive, changed)', async () => {
    const isolated = { ...world.env, CONVERGE_DIR: `${world.dir}/.converge-update` };
    const dir = (a: string) => synthApp((stack) => {
      new KvSecret(stack, 'cfg', { path: 'render/update', data: { a, b: 'same' }, maxVersions: a === 'one' ? 5 : 6 });
    });
    expect((await cliAsync(['apply', '--auto-approve', '--synth-dir', dir('one')], isolated)).status).toBe(0);
    let r = await cliAsync(['plan', '--synth-dir', dir('two'), '--compact'], isolated);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('  ~   cfg (secrets.KvSecret) will be updated in place: data.a, maxVersions\n');
    expect(r.stdout).toContain('  secrets.KvSecret: 1 to change\n');
    r = await cliAsync(['plan', '--synth-dir', dir('two')], isolated);
    expect(r.stdout).toMatch(/~ data\.a = \(sensitive, changed\)\n/);
    expect(r.stdout).toMatch(/~ maxVersions = 5 -> 6\n/);
  });

  test('--quiet: only the summary line', async () => {
    for (const args of [['--quiet', 'plan'], ['plan', '--quiet']]) {
      const r = await cliAsync([...args, '--synth-dir', app()], world.env);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('Plan: 5 to add, 0 to change, 0 to replace, 0 to destroy.\n');
    }
  });

  test('a splitter on a tcp chain: the error names the construct and the fix', async () => {
    const r = await cliAsync(['plan', '--synth-dir', app(true)], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/web-split \(mesh\.ServiceSplitter\) needs an HTTP-family protocol for service "web"/);
    expect(r.stderr).toMatch(/add a mesh\.ServiceDefaults with name: "web" and protocol: HTTP/);
  });

  test('a router on a service whose ServiceDefaults says tcp: the fix names that construct', async () => {
    const dir = synthApp((stack) => {
      new mesh.ServiceDefaults(stack, 'api-defaults', { name: 'api', protocol: mesh.MeshProtocol.TCP });
      new mesh.ServiceRouter(stack, 'api-router', { name: 'api', routes: [{ match: { http: { pathPrefix: '/v2' } } }] });
    });
    const r = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/api-router \(mesh\.ServiceRouter\) needs an HTTP-family protocol for service "api": set protocol: HTTP \(or HTTP2, GRPC\) on api-defaults \(mesh\.ServiceDefaults\)/);
  });
});
