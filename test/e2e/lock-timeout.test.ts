import { spawn } from 'child_process';
import { TerraformStack } from 'cdktf';
import { PostgresBackend } from '../../lib/core/state/postgres-backend';
import { LockHandle } from '../../lib/core/state/state-model';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { CLI, cliAsync, ROOT, startWorld, synthApp, TestWorld } from '../support/harness';
import { startPostgres, TestPostgres } from '../support/postgres';


// `plan` and `apply` that meet a lock another run holds on PostgreSQL state: a `converge watch` cycle's
// is waited for (60 s by default), any other holder's fails at once unless `--lock-timeout` says how
// long to wait; `--lock-timeout 0s` never waits.
describe('--lock-timeout', () => {
  let world: TestWorld;
  let pg: TestPostgres;
  let backend: PostgresBackend;
  let dir: string;
  beforeAll(async () => {
    pg = await startPostgres();
    world = await startWorld({}, { CONVERGE_STATE: pg.url });
    backend = new PostgresBackend(pg.url);
    dir = synthApp((st: TerraformStack) => { new KvSecret(st, 'kv', { path: 'locks/kv', data: { v: '1' } }); }, 'locked');
    const r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
  });
  afterAll(async () => {
    await backend?.close();
    await world?.stop();
    await pg?.stop();
  });

  /**
   * Runs the CLI while `lock` holds the stack; the lock is released once the CLI says it waits for it
   * (never, if it does not wait). Resolves with its exit code and output.
   */
  const meet = (lock: LockHandle, args: string[]) => new Promise<{ status: number | null; out: string }>((resolve) => {
    const p = spawn(CLI, [...args, '--synth-dir', dir], { env: world.env, cwd: ROOT });
    let out = '';
    const seen = (d: Buffer) => {
      out += d;
      if (/waiting for it/.test(out)) void lock.release();
    };
    p.stdout.on('data', seen);
    p.stderr.on('data', seen);
    p.on('close', (status) => { void lock.release(); resolve({ status, out }); });
  });

  test('a plan meeting a watch cycle waits for it, then plans', async () => {
    const r = await meet(await backend.lock('locked', 'watch'), ['plan', '--detailed-exitcode']);
    expect(r.out).toMatch(/stack "locked" is locked by .* \(watch since .*\); waiting for it, up to 60 s/);
    expect(r.status).toBe(0);
  });

  test('an apply meeting a watch cycle waits, then applies', async () => {
    const r = await meet(await backend.lock('locked', 'watch'), ['apply', '--auto-approve']);
    expect(r.out).toContain('waiting for it');
    expect(r.status).toBe(0);
  });

  test('another holder (an apply): no wait by default, a wait with --lock-timeout; 0s never waits', async () => {
    const at = await meet(await backend.lock('locked', 'apply'), ['plan']);
    expect(at.status).toBe(1);
    expect(at.out).toMatch(/state of stack "locked" is locked by .*apply since/);
    expect(at.out).not.toContain('waiting for it');

    const waited = await meet(await backend.lock('locked', 'apply'), ['plan', '--detailed-exitcode', '--lock-timeout', '1m']);
    expect(waited.out).toMatch(/waiting for it, up to 60 s\n/);
    expect(waited.status).toBe(0);

    const never = await meet(await backend.lock('locked', 'watch'), ['plan', '--lock-timeout', '0s']);
    expect(never.status).toBe(1);
    expect(never.out).toMatch(/is locked by .*watch since/);
  });

  test('a bad duration is refused, naming the flag', async () => {
    const r = await cliAsync(['plan', '--synth-dir', dir, '--lock-timeout', 'soon'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--lock-timeout must be a duration such as 0s, 30s, 5m or 1m30s (got "soon")');
  });
});
