import { spawn } from 'child_process';
import { RemovalPolicy } from '../../lib';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { CLI, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

const N = 60;

function build() {
  return synthApp((stack) => {
    for (let i = 0; i < 5; i++) new Organization(stack, `org${i}`, { name: `crash-${i}`, email: `o${i}@crash.io`, removalPolicy: RemovalPolicy.DESTROY });
    for (let i = 0; i < N; i++) new KvSecret(stack, `kv${i}`, { path: `crash/s${i}`, data: { n: String(i) } });
  }, 'crash');
}

describe('crash safety and locking', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld({ latencyMs: 15 }); });
  afterAll(async () => { await world.stop(); });

  test('an apply killed with SIGKILL mid-way is finished by the next apply: each object once, state complete', async () => {
    const dir = build();
    // Kill the CLI once it has made some progress (it prints a line per finished operation).
    const killed = await new Promise<string>((resolve) => {
      const p = spawn(CLI, ['apply', '--synth-dir', dir, '--auto-approve'], { env: world.env });
      let out = '';
      p.stdout.on('data', (d) => {
        out += d;
        if ((out.match(/✓/g) ?? []).length >= 12) p.kill('SIGKILL');
      });
      p.on('close', () => resolve(out));
    });
    expect((killed.match(/✓/g) ?? []).length).toBeLessThan(N + 5);

    const again = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(again.stderr).toMatch(/taking over a stale lock/);
    expect(again.status).toBe(0);

    const list = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/crash/?list=true`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    const keys = ((await list.json()) as { data: { keys: string[] } }).data.keys;
    expect(keys.sort()).toEqual(Array.from({ length: N }, (_, i) => `s${i}`).sort());
    for (let i = 0; i < N; i += 7) {
      const meta = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/crash/s${i}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
      expect(((await meta.json()) as { data: { current_version: number } }).data.current_version).toBe(1);
    }
    const orgs = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/organizations?q=crash-`, { headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}` } });
    expect(((await orgs.json()) as { data: unknown[] }).data).toHaveLength(5);

    const state = await cliAsync(['state', 'list', '--stack', 'crash'], world.env);
    const lines = state.stdout.trim().split('\n');
    expect(lines).toHaveLength(N + 5);
    expect(state.stdout).not.toMatch(/interrupted/);
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(0);
  });

  test('a second apply on the same stack fails at once, naming the holder, and changes nothing', async () => {
    const dir = synthApp((stack) => {
      for (let i = 0; i < 150; i++) new KvSecret(stack, `kv${i}`, { path: `lock/s${i}`, data: { n: String(i) } });
    }, 'locked');
    // CONVERGE_TIMEOUT_MS: no request of the first run times out while it is paused below.
    const first = spawn(CLI, ['apply', '--synth-dir', dir, '--auto-approve', '--parallelism', '1'], { env: { ...world.env, CONVERGE_TIMEOUT_MS: '600000' } });
    await new Promise<void>((resolve) => first.stdout.on('data', (d) => { if (String(d).includes('✓')) resolve(); }));
    // Paused mid-apply (SIGSTOP), the first run holds the lock for as long as the second takes to start and run, on
    // however busy a machine: not a race between the first run's remaining objects and the second's start.
    first.kill('SIGSTOP');
    let second;
    try {
      second = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    } finally {
      first.kill('SIGCONT');
    }
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/state of stack "locked" is locked by .+ \(pid \d+ on .+, apply since \d{4}-/);
    expect(second.stdout).not.toMatch(/✓/);
    const firstCode = await new Promise<number | null>((resolve) => first.on('close', resolve));
    expect(firstCode).toBe(0);
  });
});
