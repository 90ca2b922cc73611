import { App, TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { MeshTokenConfig } from '../../lib/secrets/mesh-token/mesh-token-config';
import { MeshTokenCredentials } from '../../lib/secrets/mesh-token/mesh-token-credentials';
import { MeshTokenRole } from '../../lib/secrets/mesh-token/mesh-token-role';
import { cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';
import { startWatch, WatchEvent, WatchProcess } from '../support/watch-process';

// The rule of `converge watch` (docs/watch.md), row by row, through the real CLI against the emulator:
// a cycle writes an object back only when the API differs from the app, the app's declaration of it
// is the last apply's, and nothing it reads changed in the app. Everything else is "app changed".
// Each test changes the app and the API before the watcher starts, so that its first cycle sees both.

describe('converge watch writes drift, and only drift', () => {
  let world: TestWorld;
  const watchers: WatchProcess[] = [];
  beforeAll(async () => { world = await startWorld(); });
  afterEach(async () => { await Promise.all(watchers.splice(0).map((w) => w.stop('SIGKILL'))); });
  afterAll(async () => { await world.stop(); });

  const watch = (args: string[]) => {
    const w = startWatch(args, world.env);
    watchers.push(w);
    return w;
  };
  const synth = (outdir: string, build: (app: App) => void) => {
    const app = new App({ outdir });
    build(app);
    app.synth();
    return outdir;
  };
  const oneStack = (stack: string, outdir: string, build: (s: TerraformStack) => void) => synth(outdir, (app) => build(new TerraformStack(app, stack)));
  const cli = async (args: string[]) => {
    const r = await cliAsync(args, world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return r;
  };
  const secrets = (method: string, p: string, body?: unknown) => fetch(`${world.env.SECRETS_ADDR}/v1/${p}`, {
    method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const put = async (p: string, data: Record<string, unknown>) => expect((await secrets('POST', `secret/data/${p}`, { data })).status).toBe(200);
  const kvData = async (p: string) => {
    const r = await secrets('GET', `secret/data/${p}`);
    return r.status === 200 ? ((await r.json()) as { data: { data: Record<string, unknown> } }).data.data : undefined;
  };
  const of = (stack: string, event: string, address?: string) => (e: WatchEvent) => e.stack === stack && e.event === event && (address === undefined || e.address === address);
  /** Waits until `event` of `address`, then for one more whole cycle: what the watcher would do, it has done. */
  const settle = async (w: WatchProcess, stack: string, event: string, address?: string) => {
    await w.waitFor(of(stack, event, address));
    await w.waitFor(of(stack, 'cycle'), w.events.length);
  };
  const written = (w: WatchProcess, stack: string) => w.events.filter((e) => e.stack === stack && ['reverted', 'renewed', 'updated', 'applied'].includes(e.event))
    .map((e) => e.address).sort();
  const appChanged = (w: WatchProcess, stack: string) => new Set(w.events.filter(of(stack, 'app-changed')).flatMap((e) => e.addresses as string[]));

  test('row: drifted, declared as last applied, reads unchanged: written back; a resource that became a lookup is the app\'s, and its key is never deleted', async () => {
    const dir = oneStack('lookup', tempDir('converge-rule-'), (s) => {
      new KvSecret(s, 'kv', { path: 'lookup/x', data: { v: 'kept' } });
      new KvSecret(s, 'other', { path: 'lookup/y', data: { v: 'declared' } });
    });
    await cli(['apply', '--synth-dir', dir, '--auto-approve']);
    await put('lookup/z', { v: 'elsewhere' });
    // The app now reads another key at kv's address (kv would be deleted by `converge apply`), not applied.
    oneStack('lookup', dir, (s) => {
      KvSecret.fromPath(s, 'kv', 'secret', 'lookup/z');
      new KvSecret(s, 'other', { path: 'lookup/y', data: { v: 'declared' } });
    });
    await put('lookup/y', { v: 'hotfix' });

    const w = watch(['--synth-dir', dir, '--interval', '0.3', '--on-drift', 'revert']);
    await settle(w, 'lookup', 'reverted', 'other');
    expect(await kvData('lookup/y')).toEqual({ v: 'declared' });
    expect(await kvData('lookup/x')).toEqual({ v: 'kept' });
    expect(written(w, 'lookup')).toEqual(['other']);
    expect(appChanged(w, 'lookup').has('kv')).toBe(true);
    expect(await w.stop()).toBe(0);
  });

  test('row: a literal that became a reference is the app\'s change, not "a value it reads changed"', async () => {
    const dir = oneStack('literal', tempDir('converge-rule-'), (s) => {
      new KvSecret(s, 'src', { path: 'literal/src', data: { v: '1' } });
      new KvSecret(s, 'copy', { path: 'literal/copy', data: { ver: 'literal' } });
      new KvSecret(s, 'control', { path: 'literal/control', data: { v: 'declared' } });
    });
    await cli(['apply', '--synth-dir', dir, '--auto-approve']);
    oneStack('literal', dir, (s) => {
      const src = new KvSecret(s, 'src', { path: 'literal/src', data: { v: '1' } });
      new KvSecret(s, 'copy', { path: 'literal/copy', data: { ver: src.version } });
      new KvSecret(s, 'control', { path: 'literal/control', data: { v: 'declared' } });
    });
    await put('literal/control', { v: 'hotfix' });

    const w = watch(['--synth-dir', dir, '--interval', '0.3', '--on-drift', 'revert']);
    await settle(w, 'literal', 'reverted', 'control');
    expect(await kvData('literal/copy')).toEqual({ ver: 'literal' });
    expect(written(w, 'literal')).toEqual(['control']);
    expect(appChanged(w, 'literal').has('copy')).toBe(true);
    expect(await w.stop()).toBe(0);
  });

  test('row: a new credential feeding an existing secret is the app\'s change, not a renewal: no token is issued', async () => {
    const base = (s: TerraformStack) => {
      const config = new MeshTokenConfig(s, 'mesh', { address: new URL(world.env.MESH_HTTP_ADDR!).host, token: SecretValue.fromEnv('MESH_HTTP_TOKEN') });
      const role = new MeshTokenRole(s, 'role', { name: 'rule-new-creds', serviceIdentities: ['web:dc1'], ttl: '1h' });
      return { config, role };
    };
    const dir = oneStack('newcreds', tempDir('converge-rule-'), (s) => {
      base(s);
      new KvSecret(s, 'stored', { path: 'newcreds/token', data: { accessor: 'none' } });
      new KvSecret(s, 'control', { path: 'newcreds/control', data: { v: 'declared' } });
    });
    await cli(['apply', '--synth-dir', dir, '--auto-approve']);
    oneStack('newcreds', dir, (s) => {
      const { config, role } = base(s);
      const creds = new MeshTokenCredentials(s, 'creds', { role });
      creds.node.addDependency(config);
      new KvSecret(s, 'stored', { path: 'newcreds/token', data: { accessor: creds.accessor } });
      new KvSecret(s, 'control', { path: 'newcreds/control', data: { v: 'declared' } });
    });
    await put('newcreds/control', { v: 'hotfix' });

    const w = watch(['--synth-dir', dir, '--interval', '0.3', '--on-drift', 'revert']);
    await settle(w, 'newcreds', 'reverted', 'control');
    expect(await kvData('newcreds/token')).toEqual({ accessor: 'none' });
    expect(written(w, 'newcreds')).toEqual(['control']);
    expect([...appChanged(w, 'newcreds')].sort()).toEqual(expect.arrayContaining(['creds', 'stored']));
    expect(await w.stop()).toBe(0);
  });

  test('rows: drift on an object whose declaration changed, or that reads an object the app changed, is not written back', async () => {
    const app = (v: string, colour: string) => (s: TerraformStack) => {
      const a = new KvSecret(s, 'a', { path: 'rows/a', data: { v } });
      new KvSecret(s, 'b', { path: 'rows/b', data: { colour } });
      new KvSecret(s, 'c', { path: 'rows/c', data: { colour: 'blue', reads: a.version } });
      new KvSecret(s, 'control', { path: 'rows/control', data: { v: 'declared' } });
    };
    const dir = oneStack('rows', tempDir('converge-rule-'), app('1', 'blue'));
    await cli(['apply', '--synth-dir', dir, '--auto-approve']);
    const c = await kvData('rows/c');
    oneStack('rows', dir, app('2', 'green'));
    await put('rows/b', { colour: 'red' });
    await put('rows/c', { ...c, colour: 'red' });
    await put('rows/control', { v: 'hotfix' });

    const w = watch(['--synth-dir', dir, '--interval', '0.3', '--on-drift', 'revert']);
    await settle(w, 'rows', 'reverted', 'control');
    expect(await kvData('rows/a')).toEqual({ v: '1' });
    expect(await kvData('rows/b')).toEqual({ colour: 'red' });
    expect((await kvData('rows/c'))!.colour).toBe('red');
    expect(written(w, 'rows')).toEqual(['control']);
    expect([...appChanged(w, 'rows')].sort()).toEqual(['a', 'b', 'c']);
    // All three drifts are reported all the same.
    for (const a of ['b', 'c', 'control']) expect(w.events.filter(of('rows', 'drift', a))).toHaveLength(1);
    expect(await w.stop()).toBe(0);
  });

  test('--on-drift report --apply-app-changes applies what the app changed and leaves a hotfix elsewhere alone', async () => {
    const app = (colour: string) => (s: TerraformStack) => {
      new KvSecret(s, 'x', { path: 'report/x', data: { colour: 'blue' } });
      new KvSecret(s, 'y', { path: 'report/y', data: { colour } });
    };
    const dir = oneStack('report', tempDir('converge-rule-'), app('blue'));
    await cli(['apply', '--synth-dir', dir, '--auto-approve']);
    await put('report/x', { colour: 'hotfix' });
    oneStack('report', dir, app('green'));

    const w = watch(['--synth-dir', dir, '--interval', '0.3', '--apply-app-changes']);
    await settle(w, 'report', 'applied', 'y');
    expect(await kvData('report/y')).toEqual({ colour: 'green' });
    expect(await kvData('report/x')).toEqual({ colour: 'hotfix' });
    expect(written(w, 'report')).toEqual(['y']);
    expect(w.events.filter(of('report', 'drift', 'x'))).toHaveLength(1);
    expect(await w.stop()).toBe(0);
  });

  test('--apply-app-changes runs apply\'s ownership checks: an object another stack manages is never taken', async () => {
    const dir = synth(tempDir('converge-rule-'), (app) => {
      new KvSecret(new TerraformStack(app, 'owner-a'), 'mine', { path: 'owner/x', data: { v: 'a' } });
      new KvSecret(new TerraformStack(app, 'owner-b'), 'theirs', { path: 'owner/x', data: { v: 'b' }, adoptExisting: true });
    });
    await cli(['apply', '--synth-dir', dir, '--stack', 'owner-a', '--auto-approve']);
    const refused = await cliAsync(['apply', '--synth-dir', dir, '--stack', 'owner-b', '--auto-approve'], world.env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('is managed by owner-a/mine (stack owner-a) already');

    const w = watch(['--synth-dir', dir, '--stack', 'owner-b', '--interval', '0.3', '--apply-app-changes', '--on-drift', 'revert']);
    const error = await w.waitFor(of('owner-b', 'error'));
    expect(error.message).toContain('is managed by owner-a/mine (stack owner-a) already');
    await w.waitFor(of('owner-b', 'cycle'), w.events.length);
    expect(written(w, 'owner-b')).toEqual([]);
    expect(await w.stop()).toBe(0);
    expect(await kvData('owner/x')).toEqual({ v: 'a' });
    // Stack b never took it: its destroy leaves a's key alone.
    await cli(['destroy', '--synth-dir', dir, '--stack', 'owner-b', '--auto-approve']);
    expect(await kvData('owner/x')).toEqual({ v: 'a' });
  });
});
