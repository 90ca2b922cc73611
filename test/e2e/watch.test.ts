import * as fs from 'fs';
import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { LocalBackend } from '../../lib/core/state/local-backend';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ServiceResolver } from '../../lib/mesh/config-entry/service-resolver';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { KvSecretData } from '../../lib/secrets/kv/kv-secret-data';
import { MeshTokenConfig } from '../../lib/secrets/mesh-token/mesh-token-config';
import { MeshTokenCredentials } from '../../lib/secrets/mesh-token/mesh-token-credentials';
import { MeshTokenRole } from '../../lib/secrets/mesh-token/mesh-token-role';
import { cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';
import { startWatch, WatchEvent, WatchProcess } from '../support/watch-process';

// `converge watch` end to end: the real CLI in its own process against the emulator over HTTP,
// its JSON events read as they come. Each test watches a stack of its own.

const SECRET = 'watch-secret-9f3c1a77e2';

describe('converge watch', () => {
  let world: TestWorld;
  const watchers: WatchProcess[] = [];
  beforeAll(async () => { world = await startWorld({}, { WATCH_PASSWORD: SECRET }); });
  afterEach(async () => { await Promise.all(watchers.splice(0).map((w) => w.stop('SIGKILL'))); });
  afterAll(async () => { await world.stop(); });

  const watch = (args: string[]) => {
    const w = startWatch(args, world.env);
    watchers.push(w);
    return w;
  };
  /** Synthesizes into `outdir` (the same directory again: a new synth of the app, as a pipeline writes it). */
  const synth = (stack: string, outdir: string, build: (s: TerraformStack) => void) => {
    const app = new App({ outdir });
    build(new TerraformStack(app, stack));
    app.synth();
    return outdir;
  };
  const apply = async (dir: string) => {
    const r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  };
  const secrets = (method: string, p: string, body?: unknown) => fetch(`${world.env.SECRETS_ADDR}/v1/${p}`, {
    method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const kvData = async (p: string) => ((await (await secrets('GET', `secret/data/${p}`)).json()) as { data: { data: Record<string, string> } }).data.data;
  const putEntry = (entry: Record<string, unknown>) => fetch(`${world.env.MESH_HTTP_ADDR}/v1/config`, {
    method: 'PUT', headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! }, body: JSON.stringify(entry),
  });
  const getEntry = async (kind: string, name: string) => (await (await fetch(`${world.env.MESH_HTTP_ADDR}/v1/config/${kind}/${name}`, {
    headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! } })).json()) as Record<string, unknown>;
  const org = (name: string, method = 'GET', attributes?: Record<string, unknown>) => fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/organizations/${name}`, {
    method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
    body: attributes ? JSON.stringify({ data: { type: 'organizations', attributes } }) : undefined,
  });
  const orgEmail = async (name: string) => ((await (await org(name)).json()) as { data: { attributes: { email: string } } }).data.attributes.email;
  const of = (stack: string, event: string, address?: string) => (e: WatchEvent) => e.stack === stack && e.event === event && (address === undefined || e.address === address);

  const fullApp = (stack: string, dir: string, colour = 'blue') => synth(stack, dir, (s) => {
    new Organization(s, 'org', { name: `${stack}-org`, email: 'ops@example.com' });
    new KvSecret(s, 'kv', { path: `${stack}/db`, data: { colour, password: SecretValue.fromEnv('WATCH_PASSWORD') } });
    new ServiceDefaults(s, 'web', { name: `${stack}-web`, protocol: MeshProtocol.HTTP });
    new ServiceResolver(s, 'resolver', { name: `${stack}-web`, connectTimeout: '5s' });
  });

  test('reports drift of each kind once per change, masked, and when it goes away', async () => {
    const dir = fullApp('drift', tempDir('converge-watch-'));
    await apply(dir);
    const w = watch(['--synth-dir', dir, '--interval', '0.5']);
    await w.waitFor(of('drift', 'cycle'));
    expect(w.events.filter((e) => e.event === 'drift')).toEqual([]);

    expect((await org('drift-org', 'PATCH', { email: 'intruder@example.com' })).status).toBe(200);
    expect((await secrets('POST', 'secret/data/drift/db', { data: { colour: 'red', password: 'changed-outside' } })).status).toBe(200);
    expect((await putEntry({ Kind: 'service-defaults', Name: 'drift-web', Protocol: 'grpc' })).status).toBe(200);
    expect((await putEntry({ Kind: 'service-resolver', Name: 'drift-web', ConnectTimeout: '9s' })).status).toBe(200);

    const orgDrift = await w.waitFor(of('drift', 'drift', 'org'));
    expect(orgDrift.changes).toEqual([{ path: 'email', before: 'ops@example.com', after: 'intruder@example.com' }]);
    const kvDrift = await w.waitFor(of('drift', 'drift', 'kv'));
    expect(kvDrift.changes).toEqual(expect.arrayContaining([{ path: 'data.colour', sensitive: true }, { path: 'data.password', sensitive: true }]));
    expect((await w.waitFor(of('drift', 'drift', 'web'))).changes).toEqual([{ path: 'protocol', before: 'http', after: 'grpc' }]);
    expect((await w.waitFor(of('drift', 'drift', 'resolver'))).changes).toEqual([{ path: 'connectTimeout', before: '5s', after: '9s' }]);

    // Several cycles later, each drift was reported once.
    const seen = w.events.length;
    await w.waitFor(of('drift', 'cycle'), seen);
    await w.waitFor(of('drift', 'cycle'), w.events.length);
    for (const a of ['org', 'kv', 'web', 'resolver']) expect(w.events.filter(of('drift', 'drift', a))).toHaveLength(1);

    // Put back by someone else: reported as resolved, and the drift gauge is back to nothing.
    expect((await putEntry({ Kind: 'service-defaults', Name: 'drift-web', Protocol: 'http' })).status).toBe(200);
    await w.waitFor(of('drift', 'drift-resolved', 'web'));
    expect(await w.stop()).toBe(0);
    // Report mode changes nothing.
    expect(await orgEmail('drift-org')).toBe('intruder@example.com');
    expect((await kvData('drift/db')).colour).toBe('red');
    // No secret in anything it printed: neither the app's nor the one written outside converge.
    expect(w.output()).not.toContain(SECRET);
    expect(w.output()).not.toContain('changed-outside');
  });

  test('finds a mesh change through the blocking query, long before the next interval', async () => {
    const dir = fullApp('blocking', tempDir('converge-watch-'));
    await apply(dir);
    // One whole plan at start, the next in an hour: only the blocking query can find the change.
    const w = watch(['--synth-dir', dir, '--interval', '3600']);
    await w.waitFor(of('blocking', 'cycle'));
    const before = w.events.length;
    expect((await putEntry({ Kind: 'service-defaults', Name: 'blocking-web', Protocol: 'http2' })).status).toBe(200);
    const drift = await w.waitFor(of('blocking', 'drift', 'web'), before);
    expect(drift.changes).toEqual([{ path: 'protocol', before: 'http', after: 'http2' }]);
    const cycle = await w.waitFor(of('blocking', 'cycle'), before);
    // The cycle it triggered planned the mesh part only: no platform or secrets read.
    expect(cycle.scope).toBe('mesh');
    expect(await w.stop()).toBe(0);
  });

  test('--on-drift revert writes back only the drifted objects, and never a change of the app', async () => {
    const dir = fullApp('revert', tempDir('converge-watch-'));
    await apply(dir);
    const w = watch(['--synth-dir', dir, '--interval', '0.5', '--on-drift', 'revert']);
    await w.waitFor(of('revert', 'cycle'));
    expect((await org('revert-org', 'PATCH', { email: 'intruder@example.com' })).status).toBe(200);
    expect((await secrets('POST', 'secret/data/revert/db', { data: { colour: 'red', password: 'changed-outside' } })).status).toBe(200);
    expect((await putEntry({ Kind: 'service-defaults', Name: 'revert-web', Protocol: 'grpc' })).status).toBe(200);
    for (const a of ['org', 'kv', 'web']) await w.waitFor(of('revert', 'reverted', a));
    expect(await orgEmail('revert-org')).toBe('ops@example.com');
    expect(await kvData('revert/db')).toEqual({ colour: 'blue', password: SECRET });
    expect((await getEntry('service-defaults', 'revert-web')).Protocol).toBe('http');

    // A new synth of the app is the app's change: reported, not applied, while drift is still reverted.
    fullApp('revert', dir, 'green');
    await w.waitFor(of('revert', 'app-changed'));
    const after = w.events.length;
    expect((await putEntry({ Kind: 'service-defaults', Name: 'revert-web', Protocol: 'tcp' })).status).toBe(200);
    await w.waitFor(of('revert', 'reverted', 'web'), after);
    expect((await kvData('revert/db')).colour).toBe('blue');
    expect(w.events.filter(of('revert', 'reverted', 'kv'))).toHaveLength(1);
    expect(await w.stop()).toBe(0);
    expect(w.output()).not.toContain(SECRET);

    // With --apply-app-changes, the new synth is applied.
    const w2 = watch(['--synth-dir', dir, '--interval', '0.5', '--apply-app-changes']);
    await w2.waitFor(of('revert', 'applied', 'kv'));
    expect((await kvData('revert/db')).colour).toBe('green');
    expect(await w2.stop()).toBe(0);
  });

  test('skips a cycle while an apply holds the lock, says so, and goes on once it is released', async () => {
    const dir = synth('locked', tempDir('converge-watch-'), (s) => { new KvSecret(s, 'kv', { path: 'locked/x', data: { a: '1' } }); });
    await apply(dir);
    const backend = new LocalBackend(path.join(world.dir, '.converge'));
    const lock = await backend.lock('locked', 'apply');
    const w = watch(['--synth-dir', dir, '--interval', '0.3', '--on-drift', 'revert']);
    const skipped = await w.waitFor(of('locked', 'locked'));
    expect(skipped.message).toMatch(/locked by .*apply/);
    expect((await secrets('POST', 'secret/data/locked/x', { data: { a: 'outside' } })).status).toBe(200);
    // Still locked: nothing is written back.
    await w.waitFor(of('locked', 'locked'), w.events.length);
    expect((await kvData('locked/x')).a).toBe('outside');
    await lock.release();
    await w.waitFor(of('locked', 'reverted', 'kv'));
    expect((await kvData('locked/x')).a).toBe('1');
    expect(await w.stop()).toBe(0);
  });

  test('renews a credential before two thirds of its lease and updates what it feeds', async () => {
    const dir = synth('lease', tempDir('converge-watch-'), (s) => {
      const config = new MeshTokenConfig(s, 'mesh', { address: new URL(world.env.MESH_HTTP_ADDR!).host, token: SecretValue.fromEnv('MESH_HTTP_TOKEN') });
      const role = new MeshTokenRole(s, 'role', { name: 'watched', serviceIdentities: ['web:dc1'], ttl: '3s' });
      const creds = new MeshTokenCredentials(s, 'creds', { role });
      creds.node.addDependency(config);
      new KvSecret(s, 'stored', { path: 'lease/token', data: { token: creds.token, accessor: creds.accessor } });
    });
    await apply(dir);
    const first = await kvData('lease/token');
    const w = watch(['--synth-dir', dir, '--interval', '0.5', '--on-drift', 'revert']);
    await w.waitFor(of('lease', 'renewed', 'creds'));
    await w.waitFor(of('lease', 'renewed', 'stored'));
    const second = await kvData('lease/token');
    expect(second.accessor).not.toBe(first.accessor);
    expect(await w.stop()).toBe(0);
    expect(w.output()).not.toContain(first.token);
    expect(w.output()).not.toContain(second.token);
  });

  test('a value read from elsewhere that changed (a rotated token) is reported, and updated in revert mode', async () => {
    expect((await secrets('POST', 'secret/data/upstream/source', { data: { token: 'first-token-0a1b2c3d' } })).status).toBe(200);
    const dir = synth('upstream', tempDir('converge-watch-'), (s) => {
      const src = new KvSecretData(s, 'source', { path: 'upstream/source' });
      new KvSecret(s, 'copy', { path: 'upstream/copy', data: { token: src.field('token') } });
    });
    await apply(dir);
    const w = watch(['--synth-dir', dir, '--interval', '0.3']);
    await w.waitFor(of('upstream', 'cycle'));
    expect((await secrets('POST', 'secret/data/upstream/source', { data: { token: 'rotated-token-4e5f6a7b' } })).status).toBe(200);
    const seen = await w.waitFor(of('upstream', 'upstream-changed'));
    expect(seen.addresses).toEqual(['copy']);
    // Not drift (nobody touched the copy), and not the app's change.
    expect(w.events.filter((e) => e.event === 'drift' || e.event === 'app-changed')).toEqual([]);
    expect(await w.stop()).toBe(0);
    expect((await kvData('upstream/copy')).token).toBe('first-token-0a1b2c3d');
    const w2 = watch(['--synth-dir', dir, '--interval', '0.3', '--on-drift', 'revert']);
    await w2.waitFor(of('upstream', 'updated', 'copy'));
    expect((await kvData('upstream/copy')).token).toBe('rotated-token-4e5f6a7b');
    expect(await w2.stop()).toBe(0);
    for (const x of [w, w2]) expect(x.output()).not.toMatch(/first-token|rotated-token/);
  });

  test('serves metrics, /healthz and /readyz; SIGTERM finishes, releases the lock and exits 0', async () => {
    const dir = synth('metrics', tempDir('converge-watch-'), (s) => {
      new KvSecret(s, 'kv', { path: 'metrics/x', data: { a: '1' } });
      new ServiceDefaults(s, 'web', { name: 'metrics-web', protocol: MeshProtocol.HTTP });
    });
    await apply(dir);
    const w = watch(['--synth-dir', dir, '--interval', '0.5', '--metrics-listen', '127.0.0.1:0']);
    const listening = await w.waitFor((e) => e.event === 'metrics');
    const base = `http://${listening.listen as string}`;
    await w.waitFor(of('metrics', 'cycle'));
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await putEntry({ Kind: 'service-defaults', Name: 'metrics-web', Protocol: 'grpc' })).status).toBe(200);
    await w.waitFor(of('metrics', 'drift', 'web'));
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain('converge_watch_drifted_objects{stack="metrics",kind="mesh.ServiceDefaults"} 1');
    expect(text).toMatch(/converge_watch_requests_total\{api="mesh",status="200"\} [1-9]/);
    expect(text).toMatch(/converge_watch_requests_total\{api="secrets",status="200"\} [1-9]/);
    expect(text).toMatch(/converge_watch_last_success_timestamp_seconds\{stack="metrics"\} \d/);
    expect(text).toMatch(/converge_watch_cycle_duration_seconds_count\{stack="metrics",scope="full"\} [1-9]/);
    expect(text).toContain('converge_watch_lock_waits_total');

    expect(await w.stop('SIGTERM')).toBe(0);
    expect(w.events.map((e) => e.event)).toContain('stopped');
    // Nothing left locked: a plan runs at once.
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--refresh', 'false'], world.env);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);
    expect(fs.existsSync(path.join(world.dir, '.converge'))).toBe(true);
  });

  test('refuses a bad flag, naming it', async () => {
    const r = await cliAsync(['watch', '--synth-dir', tempDir(), '--on-drift', 'fix'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--on-drift must be report or revert (got fix)');
  });
});
