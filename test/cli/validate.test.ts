import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';
import { cliAsync, ROOT, tempDir } from '../support/harness';

// `converge validate` (issue 34 item 4): every mistake of the app at once, each naming its construct
// path and field, without contacting any API; constructors still throw at the first one elsewhere.
describe('converge validate', () => {
  let dir: string;
  let counter: http.Server;
  let requests = 0;
  let env: NodeJS.ProcessEnv;

  const writeApp = (body: string) => fs.writeFileSync(path.join(dir, 'main.js'), `
const { App, TerraformStack } = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'cdktf'))});
const { platform, secrets, mesh } = require(${JSON.stringify(ROOT)});
const app = new App();
const stack = new TerraformStack(app, 'checked');
${body}
app.synth();
`);

  beforeAll(async () => {
    dir = tempDir('converge-validate-');
    fs.writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ app: `node ${JSON.stringify(path.join(dir, 'main.js'))}` }));
    // Every API variable points at a server that counts what reaches it.
    counter = http.createServer((_req, res) => { requests++; res.writeHead(500); res.end(); });
    await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
    env = {
      PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, NO_COLOR: '1', CONVERGE_DIR: path.join(dir, '.converge'),
      PLATFORM_ADDRESS: url, PLATFORM_TOKEN: 'tok-platform-1', SECRETS_ADDR: url, SECRETS_TOKEN: 'tok-secrets-1',
      MESH_HTTP_ADDR: url, MESH_HTTP_TOKEN: 'tok-mesh-1',
    };
  });
  afterAll(async () => {
    await new Promise((r) => counter.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const mistakes = `
new platform.Organization(stack, 'org', { name: 'acme', email: 'ops@acme.io', sessionTimeout: 0 });
new secrets.KvSecret(stack, 'kv', { path: 'app/db', data: { user: 'app' }, maxVersions: 'many' });
new mesh.ServiceDefaults(stack, 'web', { name: 'web', protocol: 'carrier-pigeon' });
new secrets.KvSecret(stack, 'fine', { path: 'app/fine', data: { a: '1' } });
`;

  test('an app with three mistakes in three constructs: three errors, each with its path and field, exit 1, no request', async () => {
    writeApp(mistakes);
    const r = await cliAsync(['validate'], env, dir);
    expect(r.status).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('Error: checked/'));
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^Error: checked\/org: sessionTimeout must be an integer/);
    expect(errors[1]).toMatch(/^Error: checked\/kv: maxVersions must be/);
    expect(errors[2]).toMatch(/^Error: checked\/web: protocol "carrier-pigeon" must be one of/);
    expect(r.stderr).toMatch(/3 errors/);
    expect(requests).toBe(0);
  });

  test('cdktf synth behaviour is unchanged: the app alone stops at its first mistake', async () => {
    writeApp(mistakes);
    const { spawnSync } = await import('child_process');
    const alone = spawnSync('node', [path.join(dir, 'main.js')], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, CDKTF_OUTDIR: path.join(dir, 'out') } });
    expect(alone.status).not.toBe(0);
    expect(alone.stderr).toContain('checked/org: sessionTimeout must be an integer');
    expect(alone.stderr).not.toContain('checked/kv');
  });

  test('mesh entries checked as a whole (split weights) and a discovery chain: each named, nothing else said', async () => {
    writeApp(`
new mesh.ServiceSplitter(stack, 'split', { name: 'web', splits: [{ weight: 30 }, { weight: 30, serviceSubset: 'v2' }] });
new mesh.DiscoveryChain(stack, 'chain', { service: '' });
new secrets.KvSecret(stack, 'kv', { path: 'app/db', data: { user: 'app' }, maxVersions: -1 });
`);
    const r = await cliAsync(['validate'], env, dir);
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('Error: '))).toEqual([
      expect.stringMatching(/^Error: checked\/split: splits .*must be 100/),
      'Error: checked/chain: service is required',
      expect.stringMatching(/^Error: checked\/kv: maxVersions must be an integer from 0/),
    ]);
    expect(requests).toBe(0);
  });

  test('an app that fails for another reason after its mistakes: the mistakes, then why it stopped', async () => {
    writeApp(`
new platform.Organization(stack, 'org', { name: 'acme', email: 'ops@acme.io', sessionTimeout: 0 });
const missing = undefined;
missing.boom();
`);
    const r = await cliAsync(['validate'], env, dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Error: checked\/org: sessionTimeout must be an integer/m);
    expect(r.stderr).toMatch(/the app stopped after these errors.*reading 'boom'/);
    expect(requests).toBe(0);
  });

  test('a valid app: exit 0, no request', async () => {
    writeApp(`new secrets.KvSecret(stack, 'fine', { path: 'app/fine', data: { a: '1' } });`);
    const r = await cliAsync(['validate'], env, dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/valid/i);
    expect(requests).toBe(0);
  });
});
