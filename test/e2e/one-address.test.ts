import * as fs from 'fs';
import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { RemovalPolicy } from '../../lib';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';

// Issue 22 §3: one object, one address. Through the real CLI (dist/) against the emulator over HTTP.
describe('one object, one address', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const kv = async (p: string) => {
    const res = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return res.status === 200 ? ((await res.json()) as { data: { data: Record<string, unknown> } }).data.data : undefined;
  };
  const stateOf = (stack: string) => {
    const f = path.join(world.dir, '.converge', 'stacks', stack, 'state.json');
    return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : undefined;
  };

  test('two constructs with the same identity in one stack are refused at plan, naming both construct paths; nothing is written', async () => {
    for (const adoptExisting of [false, true]) {
      const app = synthApp((s) => {
        new KvSecret(s, 'first', { path: 'dup/x', data: { v: '1' }, adoptExisting });
        new KvSecret(s, 'second', { path: 'dup/x', data: { v: '2' }, adoptExisting });
      }, 'dup-one');
      for (const cmd of [['plan'], ['apply', '--auto-approve']]) {
        const r = await cliAsync([...cmd, '--synth-dir', app], world.env);
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(/secrets\.KvSecret secret\/dup\/x is declared twice: dup-one\/first and dup-one\/second; an object is managed at one address only/);
      }
      expect(await kv('dup/x')).toBeUndefined();
      expect(Object.keys(stateOf('dup-one')?.resources ?? {})).toEqual([]);
    }
  });

  test('the same identity in another stack whose state is readable is refused at plan, naming both construct paths', async () => {
    const outdir = tempDir('converge-synth-');
    const app = new App({ outdir });
    new KvSecret(new TerraformStack(app, 'dup-a'), 'mine', { path: 'dup/y', data: { v: 'a' } });
    new KvSecret(new TerraformStack(app, 'dup-b'), 'theirs', { path: 'dup/y', data: { v: 'b' }, adoptExisting: true });
    app.synth();
    let r = await cliAsync(['apply', '--synth-dir', outdir, '--stack', 'dup-a', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    for (const cmd of [['plan'], ['apply', '--auto-approve']]) {
      r = await cliAsync([...cmd, '--synth-dir', outdir, '--stack', 'dup-b'], world.env);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/secrets\.KvSecret secret\/dup\/y is managed by dup-a\/mine \(stack dup-a\) already: dup-b\/theirs cannot manage it too/);
    }
    expect(await kv('dup/y')).toEqual({ v: 'a' });
    // Both planned in one run, neither applied: refused too.
    r = await cliAsync(['plan', '--synth-dir', outdir, '--stack', '*'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/dup-a\/mine/);
  });

  test('import into one stack of an object another stack manages is refused as plan refuses it; nothing is recorded', async () => {
    const outdir = tempDir('converge-synth-');
    const app = new App({ outdir });
    new KvSecret(new TerraformStack(app, 'imp-a'), 'mine', { path: 'dup/imp', data: { v: 'a' } });
    new KvSecret(new TerraformStack(app, 'imp-b'), 'theirs', { path: 'dup/imp', data: { v: 'b' } });
    app.synth();
    let r = await cliAsync(['apply', '--synth-dir', outdir, '--stack', 'imp-a', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['import', '--synth-dir', outdir, '--stack', 'imp-b', 'theirs', 'secret/dup/imp'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/import of theirs into stack imp-b refused:\n {2}secrets\.KvSecret secret\/dup\/imp is managed by imp-a\/mine \(stack imp-a\) already: imp-b\/theirs cannot manage it too/);
    expect(Object.keys(stateOf('imp-b')?.resources ?? {})).toEqual([]);
    // So b's destroy leaves a's key alone.
    r = await cliAsync(['destroy', '--synth-dir', outdir, '--stack', 'imp-b', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(await kv('dup/imp')).toEqual({ v: 'a' });
  });

  test('a resource that becomes a lookup at the same address: a retained one is shown forgotten, and stays on the API', async () => {
    const managed = (removalPolicy: RemovalPolicy) => synthApp((s) => { new KvSecret(s, 'x', { path: 'rl/x', data: { v: '1' }, removalPolicy }); }, 'rl-retain');
    const lookup = synthApp((s) => {
      const x = KvSecret.fromPath(s, 'x', 'secret', 'rl/x');
      new KvSecret(s, 'use', { path: 'rl/use', data: { v: x.version } });
    }, 'rl-retain');
    let r = await cliAsync(['apply', '--synth-dir', managed(RemovalPolicy.RETAIN), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', lookup, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/x \(secrets\.KvSecret\) will be removed from state \(the object stays\) \(it becomes a lookup; removal policy retain: the object stays on the API\)/);
    r = await cliAsync(['apply', '--synth-dir', lookup, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(await kv('rl/use')).toEqual({ v: 1 });
    expect(stateOf('rl-retain').resources.x.dataSource).toBe(true);
    r = await cliAsync(['destroy', '--synth-dir', lookup, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(await kv('rl/x')).toEqual({ v: '1' });
  });

  test('a resource that becomes a lookup at the same address: one converge would destroy is shown destroyed; a lookup of that same object is refused with the remedy', async () => {
    const managed = synthApp((s) => { new KvSecret(s, 'x', { path: 'rl/d', data: { v: '1' }, removalPolicy: RemovalPolicy.DESTROY }); }, 'rl-destroy');
    let r = await cliAsync(['apply', '--synth-dir', managed, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    // A lookup of another object at the address: the old one is destroyed, as any resource leaving the app.
    await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/rl/other`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: JSON.stringify({ data: { o: '1' } }),
    });
    const same = synthApp((s) => { KvSecret.fromPath(s, 'x', 'secret', 'rl/d'); }, 'rl-destroy');
    r = await cliAsync(['plan', '--synth-dir', same], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/rl-destroy\/x: the secrets\.KvSecret converge manages at this address \(secret\/rl\/d\) would be destroyed \(removal policy destroy\) while the lookup reads it: set removalPolicy retain on it and apply, then make it a lookup \(or forget it first: converge state rm x\)/);
    const other = synthApp((s) => { KvSecret.fromPath(s, 'x', 'secret', 'rl/other'); }, 'rl-destroy');
    r = await cliAsync(['plan', '--synth-dir', other, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/x \(secrets\.KvSecret\) will be destroyed \(it becomes a lookup\)/);
    r = await cliAsync(['apply', '--synth-dir', other, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(await kv('rl/d')).toBeUndefined();
    expect(await kv('rl/other')).toEqual({ o: '1' });
  });

  test('converge import keeps the record\'s references to other stacks: destroying the producer still warns', async () => {
    const outdir = tempDir('converge-synth-');
    const app = new App({ outdir });
    const src = new KvSecret(new TerraformStack(app, 'imp-producer'), 'src', { path: 'imp/src', data: { a: '1' } });
    new KvSecret(new TerraformStack(app, 'imp-consumer'), 'dst', { path: 'imp/dst', data: { v: src.version } });
    app.synth();
    let r = await cliAsync(['apply', '--synth-dir', outdir, '--stack', '*', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['state', 'rm', 'dst', '--stack', 'imp-consumer'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['import', 'dst', 'secret/imp/dst', '--synth-dir', outdir, '--stack', 'imp-consumer'], world.env);
    expect(r.status).toBe(0);
    expect(stateOf('imp-consumer').resources.dst.stackRefs).toEqual(['imp-producer/src.version']);
    r = await cliAsync(['plan', '--synth-dir', outdir, '--stack', 'imp-producer', '--destroy'], world.env);
    expect(r.stderr).toMatch(/Warning: other stacks in local \([^)]*\) read values of stack imp-producer: imp-consumer \(dst reads imp-producer\/src\.version\)/);
  });
});
