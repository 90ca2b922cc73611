import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';

// Issue 22 §1: a plan is what the apply does (lookups, references between stacks, refresh).
// Through the real CLI (dist/) against the emulator over HTTP.
describe('what a plan read is what the apply uses', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const kv = async (p: string) => {
    const res = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return res.status === 200 ? ((await res.json()) as { data: { data: Record<string, unknown>; metadata: { version: number } } }).data : undefined;
  };
  const write = async (p: string, data: Record<string, unknown>) => {
    const res = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: JSON.stringify({ data }),
    });
    expect(res.status).toBe(200);
  };

  test('a saved plan whose lookup reads another version at apply is refused as stale, naming the lookup; nothing is written', async () => {
    await write('pr/src', { a: '1' });
    const app = synthApp((s) => {
      const src = KvSecret.fromPath(s, 'src', 'secret', 'pr/src');
      new KvSecret(s, 'dst', { path: 'pr/dst', data: { v: src.version } });
    }, 'pr-lookup');
    let r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await kv('pr/dst'))!.data).toEqual({ v: 1 });
    await write('pr/src', { a: '2' });
    const planFile = path.join(world.dir, 'pr-lookup.plan');
    r = await cliAsync(['plan', '--synth-dir', app, '--out', planFile], world.env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/dst \(secrets\.KvSecret\)[^\n]*updated/);
    // A writer after the plan was saved: version 3, a value the plan never showed.
    await write('pr/src', { a: '3' });
    r = await cliAsync(['apply', planFile], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/the plan is stale: src \(lookup:secrets\.KvSecret\) reads other values than when the plan was made \([^)]*version[^)]*\); run converge plan again/);
    expect((await kv('pr/dst'))!.data).toEqual({ v: 1 });
    // Planned again, it applies what it shows.
    r = await cliAsync(['plan', '--synth-dir', app, '--out', planFile], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', planFile], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await kv('pr/dst'))!.data).toEqual({ v: 3 });
  });

  test('a saved plan whose lookup reads the same at apply is applied', async () => {
    await write('pr/same', { a: '1' });
    const app = synthApp((s) => {
      const src = KvSecret.fromPath(s, 'src', 'secret', 'pr/same');
      new KvSecret(s, 'dst', { path: 'pr/same-dst', data: { v: src.version } });
    }, 'pr-same');
    const planFile = path.join(world.dir, 'pr-same.plan');
    let r = await cliAsync(['plan', '--synth-dir', app, '--out', planFile], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', planFile], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await kv('pr/same-dst'))!.data).toEqual({ v: 1 });
  });

  test('a producer\'s lookup that reads a new value is known after apply in its consumer; the saved plan gives the consumer the new value', async () => {
    await write('pr/xs', { a: '1' });
    const outdir = tempDir('converge-synth-');
    const app = new App({ outdir });
    const p = new TerraformStack(app, 'pr-producer');
    const c = new TerraformStack(app, 'pr-consumer');
    const src = KvSecret.fromPath(p, 'src', 'secret', 'pr/xs');
    new KvSecret(c, 'dst', { path: 'pr/xs-dst', data: { v: src.version } });
    app.synth();
    let r = await cliAsync(['apply', '--synth-dir', outdir, '--stack', '*', '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await kv('pr/xs-dst'))!.data).toEqual({ v: 1 });
    await write('pr/xs', { a: '2' });
    r = await cliAsync(['plan', '--synth-dir', outdir, '--stack', '*', '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/dst \(secrets\.KvSecret\)[^\n]*updated/);
    expect(r.stdout).toMatch(/data\.v = \(sensitive, changed\)/);
    const planFile = path.join(world.dir, 'pr-xs.plan');
    r = await cliAsync(['plan', '--synth-dir', outdir, '--stack', '*', '--out', planFile], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', planFile], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await kv('pr/xs-dst'))!.data).toEqual({ v: 2 });
    r = await cliAsync(['plan', '--synth-dir', outdir, '--stack', '*', '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });

  test('refresh does not hide KV data drift: the next plan still shows the data written outside converge', async () => {
    const app = synthApp((s) => { new KvSecret(s, 'r', { path: 'pr/refresh', data: { a: '1' } }); }, 'pr-refresh');
    let r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    await write('pr/refresh', { a: 'outside' });
    r = await cliAsync(['refresh', '--synth-dir', app], world.env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/~ r: changed outside converge \(data\.a\)/);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/data\.a = \(sensitive/);
    r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await kv('pr/refresh'))!.data).toEqual({ a: '1' });
    r = await cliAsync(['refresh', '--synth-dir', app], world.env);
    expect(r.stdout).toMatch(/0 drifted/);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });
});
