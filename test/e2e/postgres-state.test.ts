import { spawn } from 'child_process';
import { Client } from 'pg';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { CLI, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';
import { startPostgres, TestPostgres } from '../support/postgres';

async function sql<T extends object>(url: string, text: string): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

describe('the CLI with its state in PostgreSQL', () => {
  let pg: TestPostgres;
  let world: TestWorld;
  beforeAll(async () => {
    pg = await startPostgres();
    world = await startWorld({ latencyMs: 10 }, { CONVERGE_STATE: pg.url });
  });
  afterAll(async () => {
    await world?.stop();
    await pg?.stop();
  });

  test('apply writes the stack row, the next plan is a no-op, and the key is required', async () => {
    const dir = synthApp((stack) => {
      for (let i = 0; i < 3; i++) new KvSecret(stack, `kv${i}`, { path: `pg/s${i}`, data: { n: String(i) } });
    }, 'pgstack');
    const apply = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    const rows = await sql<{ stack: string; serial: string; n: number }>(pg.url,
      "SELECT stack, serial, (SELECT count(*) FROM jsonb_object_keys(document->'resources'))::int AS n FROM converge_state");
    expect(rows).toEqual([{ stack: 'pgstack', serial: expect.stringMatching(/^[1-9]\d*$/), n: 3 }]);
    expect(await sql(pg.url, 'SELECT * FROM converge_locks')).toEqual([]);

    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(0);
    const list = await cliAsync(['state', 'list', '--stack', 'pgstack'], world.env);
    expect(list.stdout.trim().split('\n')).toHaveLength(3);

    const noKey = await cliAsync(['plan', '--synth-dir', dir], { ...world.env, CONVERGE_STATE_KEY: '' });
    expect(noKey.status).toBe(1);
    expect(noKey.stderr).toContain('CONVERGE_STATE_KEY');
    expect(noKey.stderr + noKey.stdout).not.toContain(new URL(pg.url).password);
  });

  test('an apply killed with SIGKILL mid-way left each finished object in state (journal rows), and the next apply finishes it: each key once', async () => {
    const n = 40;
    const dir = synthApp((stack) => {
      for (let i = 0; i < n; i++) new KvSecret(stack, `kv${i}`, { path: `pgcrash/s${i}`, data: { n: String(i) } });
    }, 'pgcrash');
    let done = 0;
    await new Promise<void>((resolve) => {
      const p = spawn(CLI, ['apply', '--synth-dir', dir, '--auto-approve'], { env: world.env });
      let out = '';
      p.stdout.on('data', (d) => {
        out += d;
        done = (out.match(/✓/g) ?? []).length;
        if (done >= 10) p.kill('SIGKILL');
      });
      p.on('close', () => resolve());
    });
    expect(done).toBeLessThan(n);
    // The changes since the first whole write are journal rows; read replays them: every object reported done is in state.
    expect((await sql<{ n: number }>(pg.url, "SELECT count(*)::int AS n FROM converge_journal WHERE stack = 'pgcrash'"))[0].n).toBeGreaterThan(0);
    const listed = await cliAsync(['state', 'list', '--stack', 'pgcrash'], world.env);
    expect(listed.stdout.trim().split('\n').filter((l) => !/interrupted|intent/.test(l)).length).toBeGreaterThanOrEqual(done);

    const again = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(again.status).toBe(0);
    const keys = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/pgcrash/?list=true`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(((await keys.json()) as { data: { keys: string[] } }).data.keys.sort()).toEqual(Array.from({ length: n }, (_, i) => `s${i}`).sort());
    for (let i = 0; i < n; i += 3) {
      const meta = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/pgcrash/s${i}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
      expect(((await meta.json()) as { data: { current_version: number } }).data.current_version).toBe(1);
    }
    // The run's end wrote the whole document: the journal of the stack is empty, the row holds every object.
    expect(await sql(pg.url, "SELECT serial FROM converge_journal WHERE stack = 'pgcrash'")).toEqual([]);
    const rows = await sql<{ n: number }>(pg.url, "SELECT (SELECT count(*) FROM jsonb_object_keys(document->'resources'))::int AS n FROM converge_state WHERE stack = 'pgcrash'");
    expect(rows).toEqual([{ n }]);
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(0);
  });

  test('of two applies on the same stack, one proceeds and the other fails at once naming the holder', async () => {
    const dir = synthApp((stack) => {
      for (let i = 0; i < 150; i++) new KvSecret(stack, `kv${i}`, { path: `pglock/s${i}`, data: { n: String(i) } });
    }, 'pglocked'); // enough objects, one at a time, that the first run still holds the lock when the second has started
    const first = spawn(CLI, ['apply', '--synth-dir', dir, '--auto-approve', '--parallelism', '1'], { env: world.env });
    let firstErr = '';
    first.stderr.on('data', (d) => { firstErr += d; });
    const firstCode = new Promise<number | null>((resolve) => first.on('close', resolve));
    // A finished operation means the first run holds the lock.
    await new Promise<void>((resolve) => first.stdout.on('data', (d) => { if (String(d).includes('✓')) resolve(); }));
    const second = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`state of stack "pglocked" is locked by .+ \\(pid ${first.pid} on .+, apply since \\d{4}-`));
    expect(second.stdout).not.toMatch(/✓/);
    expect(await firstCode).toBe(0);
    expect(firstErr).toBe('');

    const list = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/pglock/?list=true`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(((await list.json()) as { data: { keys: string[] } }).data.keys).toHaveLength(150);
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(0);
  });
});
