import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { CLI, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

const N = 16;

function build(stack: string): string {
  return synthApp((s) => {
    for (let i = 0; i < N; i++) new KvSecret(s, `kv${i}`, { path: `${stack}/s${i}`, data: { n: String(i) } });
  }, stack);
}

/**
 * Starts the CLI; `signal` is sent once `ready(stdout)` holds (with `twice`, again once the CLI has
 * said it got the first: two signals sent at once may be delivered as one); resolves with the exit.
 */
function interrupted(args: string[], env: NodeJS.ProcessEnv, ready: (stdout: string, p: ChildProcess) => boolean,
  signal: NodeJS.Signals, twice = false): Promise<{ status: number | null; by: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(CLI, args, { env });
    let stdout = '';
    let stderr = '';
    let sent = false;
    const check = () => {
      if (sent || !ready(stdout, p)) return;
      sent = true;
      p.kill(signal);
    };
    let again = !twice;
    p.stdout.on('data', (d) => { stdout += d; check(); });
    p.stderr.on('data', (d) => {
      stderr += d;
      if (!again && stderr.includes('interrupted by')) { again = true; p.kill(signal); }
    });
    const poll = setInterval(check, 20);
    p.on('close', (status, by) => { clearInterval(poll); resolve({ status, by, stdout, stderr }); });
  });
}

async function kvVersions(world: TestWorld, prefix: string): Promise<Record<string, number>> {
  const h = { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } };
  const list = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/${prefix}/?list=true`, h);
  if (list.status === 404) return {};
  const out: Record<string, number> = {};
  for (const k of ((await list.json()) as { data: { keys: string[] } }).data.keys) {
    const meta = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/${prefix}/${k}`, h);
    out[k] = ((await meta.json()) as { data: { current_version: number } }).data.current_version;
  }
  return out;
}

describe('interrupts', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld({ latencyMs: 50 }); });
  afterAll(async () => { await world.stop(); });
  const lockFile = (stack: string) => path.join(world.env.CONVERGE_DIR!, 'stacks', stack, 'lock.json');

  test('SIGINT mid-apply: in-flight operations finish, nothing new starts, state is written, the lock released, exit 130', async () => {
    const dir = build('sigint');
    const r = await interrupted(['apply', '--synth-dir', dir, '--auto-approve', '--parallelism', '2'], world.env, (out) => out.includes('✓'), 'SIGINT');
    expect(r.by).toBeNull();
    expect(r.status).toBe(130);
    expect(r.stderr).toMatch(/interrupted by SIGINT: starting nothing new/);
    const m = /Apply of stack sigint interrupted by SIGINT: (\d+) done, 0 failed, (\d+) not started\./.exec(r.stdout);
    expect(m).not.toBeNull();
    const [done, notStarted] = [Number(m![1]), Number(m![2])];
    expect(done + notStarted).toBe(N);
    expect(notStarted).toBeGreaterThan(0);
    expect(r.stdout.match(/^ {2}done {8}kv\d+ \(create\)$/gm)).toHaveLength(done);
    expect(r.stdout.match(/^ {2}not started kv\d+ \(create\)$/gm)).toHaveLength(notStarted);
    expect(fs.existsSync(lockFile('sigint'))).toBe(false);

    // State holds exactly what was done; a plan needs no force-unlock and plans the rest.
    const list = await cliAsync(['state', 'list', '--stack', 'sigint'], world.env);
    expect(list.stdout.trim().split('\n')).toHaveLength(done);
    expect(list.stdout).not.toMatch(/create interrupted/);
    expect(Object.keys(await kvVersions(world, 'sigint'))).toHaveLength(done);
    const plan = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(plan.status).toBe(0);
    expect(plan.stderr).not.toMatch(/stale lock/);
    expect(plan.stdout).toMatch(new RegExp(`${notStarted} to add`));

    const again = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(again.status).toBe(0);
    const versions = await kvVersions(world, 'sigint');
    expect(Object.keys(versions)).toHaveLength(N);
    expect(Object.values(versions).every((v) => v === 1)).toBe(true);
  });

  test('SIGTERM during destroy exits 143 with the same report; a second SIGINT exits at once', async () => {
    const dir = build('sigterm');
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    const d = await interrupted(['destroy', '--synth-dir', dir, '--auto-approve', '--parallelism', '1'], world.env, (out) => out.includes('✓'), 'SIGTERM');
    expect(d.status).toBe(143);
    const m = /Destroy of stack sigterm interrupted by SIGTERM: (\d+) done, 0 failed, (\d+) not started\./.exec(d.stdout);
    expect(m).not.toBeNull();
    expect(Number(m![1]) + Number(m![2])).toBe(N);
    expect(Object.keys(await kvVersions(world, 'sigterm'))).toHaveLength(Number(m![2]));
    expect(fs.existsSync(lockFile('sigterm'))).toBe(false);

    // Two SIGINTs at once: no waiting for the operation in flight, no report; the lock file is still removed.
    const twice = await interrupted(['destroy', '--synth-dir', dir, '--auto-approve', '--parallelism', '1'], world.env,
      (out) => out.includes('delete…'), 'SIGINT', true);
    expect(twice.status).toBe(130);
    expect(twice.stderr).toMatch(/SIGINT again: exiting at once/);
    expect(twice.stdout).not.toMatch(/interrupted by SIGINT: \d+ done/);
    expect(fs.existsSync(lockFile('sigterm'))).toBe(false);
    const finish = await cliAsync(['destroy', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(finish.status).toBe(0);
    expect(await kvVersions(world, 'sigterm')).toEqual({});
  });

  test('SIGINT during plan releases the lock and exits 130', async () => {
    const dir = build('planint');
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    const r = await interrupted(['plan', '--synth-dir', dir, '--parallelism', '1'], world.env, () => fs.existsSync(lockFile('planint')), 'SIGINT');
    expect(r.status).toBe(130);
    expect(r.stderr).toMatch(/interrupted by SIGINT; released the lock of stack planint/);
    expect(fs.existsSync(lockFile('planint'))).toBe(false);
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(0);
    expect(plan.stderr).toBe('');
  });

  test('operations still in flight when the grace period ends: exit 130 with the lock released; the next apply recovers them', async () => {
    const slow = await startWorld({ latencyMs: 600 });
    try {
      const dir = synthApp((s) => { for (let i = 0; i < 3; i++) new KvSecret(s, `kv${i}`, { path: `grace/s${i}`, data: { n: String(i) } }); }, 'grace');
      const env = { ...slow.env, CONVERGE_INTERRUPT_GRACE_MS: '200' };
      const r = await interrupted(['apply', '--synth-dir', dir, '--auto-approve', '--parallelism', '1'], env, (out) => out.includes('create…'), 'SIGINT');
      expect(r.status).toBe(130);
      expect(r.stderr).toMatch(/operations still in flight after 0\.2 s: exiting; released the lock of stack grace/);
      expect(fs.existsSync(path.join(slow.env.CONVERGE_DIR!, 'stacks', 'grace', 'lock.json'))).toBe(false);
      const again = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], slow.env);
      expect(again.status).toBe(0);
      const versions = await kvVersions(slow, 'grace');
      expect(Object.keys(versions)).toHaveLength(3);
      expect(Object.values(versions).every((v) => v === 1)).toBe(true);
    } finally {
      await slow.stop();
    }
  });
});
