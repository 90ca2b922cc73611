import * as fs from 'fs';
import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { RemovalPolicy, SecretValue } from '../../lib';
import * as mesh from '../../lib/mesh';
import { Organization } from '../../lib/platform/organization/organization';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';

// Issue 12 §3 (replace) and §4: what state remembers. Through the real CLI (dist/) against the emulator over HTTP.
describe('what state remembers', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld({ secretsMounts: { 'kv/team': 'kv' } }, { SM_TOKEN: 'sm-token-0a1b' }); });
  afterAll(async () => { await world.stop(); });

  const stateOf = (stack: string) => JSON.parse(fs.readFileSync(path.join(world.dir, '.converge', 'stacks', stack, 'state.json'), 'utf8'));
  const kvStatus = async (p: string) => (await fetch(`${world.env.SECRETS_ADDR}/v1/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } })).status;

  test('a removal policy changed to retain is recorded although the API needs no call; the removal then keeps the object', async () => {
    const app = (policy: RemovalPolicy | undefined) => synthApp((s) => {
      if (policy) new KvSecret(s, 'keep', { path: 'sm/keep', data: { a: '1' }, removalPolicy: policy });
    }, 'sm-policy');
    let r = await cliAsync(['apply', '--synth-dir', app(RemovalPolicy.DESTROY), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', app(RemovalPolicy.RETAIN), '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/keep \(secrets\.KvSecret\) state will be updated \(removal policy destroy -> retain\)/);
    expect(r.status).toBe(2);
    r = await cliAsync(['apply', '--synth-dir', app(RemovalPolicy.RETAIN), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(stateOf('sm-policy').resources.keep.removalPolicy).toBe('retain');
    r = await cliAsync(['apply', '--synth-dir', app(undefined), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(await kvStatus('secret/data/sm/keep')).toBe(200);
  });

  test('refresh right after an apply finds no drift: durations in the API\'s spelling, a mount whose path has a slash', async () => {
    const app = synthApp((s) => {
      new KvSecret(s, 'team', { mount: 'kv/team', path: 'app/db', data: { a: '1' }, deleteVersionAfter: '1h', maxVersions: 3 });
    }, 'sm-refresh');
    let r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['refresh', '--synth-dir', app], world.env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/0 gone, 0 drifted/);
    expect(r.stdout).not.toMatch(/deleted outside converge|changed outside converge/);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });

  test('a reference to a construct of another stack is a cross-stack reference, not one to this stack\'s construct of the same address', () => {
    const outdir = tempDir('converge-synth-');
    const app = new App({ outdir });
    const a = new TerraformStack(app, 'a');
    const b = new TerraformStack(app, 'b');
    const src = new KvSecret(a, 'src', { path: 'sm/src', data: { x: '1' } });
    new KvSecret(b, 'src', { path: 'sm/other', data: { x: '1' } });
    new KvSecret(b, 'dst', { path: 'sm/dst', data: { v: src.version } });
    app.synth();
    const dst = JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', 'b', 'cdk.tf.json'), 'utf8'))['//'].metadata.converge.resources.dst;
    expect(dst.spec.data.v).toEqual({ $ref: 'src', attr: 'version', stack: 'a' });
    expect(dst.dependsOn).toEqual([]);
  });

  test('a construct whose kind changes at the same address is a delete and a create', async () => {
    const app = (proxy: boolean) => synthApp((s) => {
      if (proxy) new mesh.ProxyDefaults(s, 'foo', { meshGateway: { mode: mesh.MeshGatewayMode.LOCAL } });
      else new mesh.ServiceDefaults(s, 'foo', { name: 'sm-foo', protocol: mesh.MeshProtocol.HTTP, externalSni: 'foo.example' });
    }, 'sm-kind');
    let r = await cliAsync(['apply', '--synth-dir', app(false), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', app(true), '--detailed-exitcode'], world.env);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/foo \(mesh\.ProxyDefaults\) must be replaced \(the kind changes from mesh\.ServiceDefaults to mesh\.ProxyDefaults\)/);
    expect(r.status).toBe(2);
    r = await cliAsync(['apply', '--synth-dir', app(true), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    const get = (p: string) => fetch(`${world.env.MESH_HTTP_ADDR}/v1/config/${p}`, { headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! } });
    expect((await get('service-defaults/sm-foo')).status).toBe(404);
    expect((await get('proxy-defaults/global')).status).toBe(200);
    r = await cliAsync(['destroy', '--synth-dir', app(true), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
  });

  test('createBeforeDestroy: the replacement exists before the old object is deleted, and state keeps no leftover', async () => {
    const org = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/organizations`, {
      method: 'POST', headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'organizations', attributes: { name: 'sm-org', email: 'a@b.io' } } }),
    });
    expect(org.status).toBe(201);
    const app = (apiUrl: string) => synthApp((s) => {
      new OAuthClient(s, 'vcs', { organization: Organization.fromName(s, 'org', 'sm-org'), name: 'main', serviceProvider: VcsServiceProvider.PROVIDER_A, key: 'k',
        httpUrl: 'https://vcs.example.com', apiUrl, oauthToken: SecretValue.fromEnv('SM_TOKEN'), createBeforeDestroy: true });
    }, 'sm-cbd');
    let r = await cliAsync(['apply', '--synth-dir', app('https://api.one.example.com'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    const first = stateOf('sm-cbd').resources.vcs.id;
    r = await cliAsync(['apply', '--synth-dir', app('https://api.two.example.com'), '--auto-approve'], world.env);
    expect(r.stdout).toMatch(/vcs \(platform\.OAuthClient\) must be replaced/);
    expect(r.status).toBe(0);
    const rec = stateOf('sm-cbd').resources.vcs;
    expect(rec.id).not.toBe(first);
    expect(rec.deposed).toBeUndefined();
    const show = (id: string) => fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/oauth-clients/${id}`, { headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}` } });
    expect((await show(first)).status).toBe(404);
    expect((await show(rec.id)).status).toBe(200);
  });
});
