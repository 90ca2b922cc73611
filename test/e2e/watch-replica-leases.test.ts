import { App, TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';
import { startPostgres, TestPostgres } from '../support/postgres';
import { startWatch, WatchEvent, WatchProcess } from '../support/watch-process';

// Every stack is watched by exactly one live replica: leases are per state location (two tables, one
// stack name), the fair share counts only the replicas that watch a stack, a lease whose holder is not
// a heartbeating replica is taken over, and /readyz says when a stack of the replica's set has nobody.
// Real `converge watch` processes on a real PostgreSQL.

const HEARTBEAT = '0.5';

describe('converge watch replica leases', () => {
  let world: TestWorld;
  let pg: TestPostgres;
  const running: WatchProcess[] = [];
  const watch = (args: string[], env: NodeJS.ProcessEnv) => {
    const w = startWatch(['--interval', '60', '--heartbeat', HEARTBEAT, ...args], env);
    running.push(w);
    return w;
  };
  const sql = async (text: string, params: unknown[] = []) => {
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    try { return (await c.query(text, params)).rows; } finally { await c.end(); }
  };
  const app = (stacks: string[], prefix: string) => {
    const dir = tempDir('converge-leases-');
    const a = new App({ outdir: dir });
    for (const s of stacks) new KvSecret(new TerraformStack(a, s), 'kv', { path: `${prefix}/${s}`, data: { v: s } });
    a.synth();
    return dir;
  };
  const apply = async (dir: string, env: NodeJS.ProcessEnv) => {
    const r = await cliAsync(['apply', '--synth-dir', dir, '--stack', '*', '--auto-approve'], env);
    if (r.status !== 0) throw new Error(`apply exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  };
  const gained = (w: WatchProcess, stack: string) => w.waitFor((e) => e.event === 'lease-gained' && e.stack === stack);
  /** A few heartbeats: time for every replica to beat several times (what they hold then is compared, not when). */
  const settle = () => new Promise((r) => setTimeout(r, Number(HEARTBEAT) * 1000 * 6));

  beforeAll(async () => {
    pg = await startPostgres();
    world = await startWorld({}, { CONVERGE_STATE: pg.url });
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop('SIGKILL')));
    await sql('DROP TABLE IF EXISTS converge_watch_leases, converge_watch_replicas');
  });
  afterAll(async () => {
    await world?.stop();
    await pg?.stop();
  });

  test('two states in one database (staging and prod tables), the same stack name: each watched, prod\'s drift reported', async () => {
    const envs = ['staging', 'prod'].map((e) => ({ name: e, env: { ...world.env, CONVERGE_STATE: `${pg.url}?table=${e}.converge_state` }, dir: app(['app'], e) }));
    for (const e of envs) await apply(e.dir, e.env);
    const [staging, prod] = envs.map((e) => watch(['--synth-dir', e.dir, '--interval', '1'], e.env));
    await Promise.all([gained(staging, 'app'), gained(prod, 'app')]);
    await prod.waitFor((e) => e.event === 'cycle' && e.stack === 'app' && e.outcome === 'ok');
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/prod/app`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! }, body: JSON.stringify({ data: { v: 'hotfix' } }),
    });
    expect(r.status).toBe(200);
    const drift = await prod.waitFor((e) => e.event === 'drift' && e.stack === 'app');
    expect(drift.address).toBe('kv');
    expect(staging.events.filter((e) => e.event === 'drift')).toEqual([]);
  });

  test('replica A watches s1 and s2, replica B only s1: s2 is never given back to nobody', async () => {
    const dir = app(['s1', 's2'], 'orphan');
    await apply(dir, world.env);
    const a = watch(['--synth-dir', dir], world.env);
    await Promise.all([gained(a, 's1'), gained(a, 's2')]);
    const b = watch(['--synth-dir', dir, '--stack', 's1'], world.env);
    await b.waitFor((e) => e.event === 'started');
    await settle();
    expect(heldBy(a.events).concat(heldBy(b.events)).sort()).toEqual(['s1', 's2']);
    expect(heldBy(b.events)).not.toContain('s2');
    expect(a.events.filter((e) => e.event === 'lease-lost' && e.stack === 's2')).toEqual([]);
  });

  test('a lease planted for a holder that is not a live replica is taken over', async () => {
    const dir = app(['p1', 'p2'], 'planted');
    await apply(dir, world.env);
    // A replica takes both leases and dies; its rows are then made to name a holder that never ran, and
    // one whose heartbeat row lies far in the future (no replica beats from there), both for a year.
    const first = watch(['--synth-dir', dir], world.env);
    await Promise.all([gained(first, 'p1'), gained(first, 'p2')]);
    await first.stop('SIGKILL');
    await sql('INSERT INTO converge_watch_replicas (holder, seen_at) VALUES (\'ghost-2\', now() + interval \'1 year\')');
    const planted = await sql('UPDATE converge_watch_leases SET holder = CASE WHEN stack LIKE \'%p1\' THEN \'ghost\' ELSE \'ghost-2\' END, ' +
      'expires_at = now() + interval \'1 year\' RETURNING stack');
    expect(planted).toHaveLength(2);
    const w = watch(['--synth-dir', dir], world.env);
    await Promise.all([gained(w, 'p1'), gained(w, 'p2')]);
  });

  test('/readyz: 200 once the stacks are held and have cycled; 503 when the replica loses its database', async () => {
    const own = await startPostgres();
    try {
      const env = { ...world.env, CONVERGE_STATE: own.url };
      const dir = app(['q1'], 'ready');
      await apply(dir, env);
      const w = watch(['--synth-dir', dir, '--metrics-listen', '127.0.0.1:0'], env);
      const at = (await w.waitFor((e) => e.event === 'metrics')).listen as string;
      await w.waitFor((e) => e.event === 'cycle' && e.stack === 'q1');
      const readyz = async () => (await fetch(`http://${at}/readyz`)).status;
      await until(async () => (await readyz()) === 200);
      await own.stop();
      // Its lease lapses (nobody can renew it): the stack is held by nobody live, and the replica says so.
      await until(async () => (await readyz()) === 503);
    } finally {
      await own.stop().catch(() => undefined);
    }
  });
});

/** Polls `ok` until it holds (at most 30 s). */
async function until(ok: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not reached within 30 s: ${ok.toString()}`);
}

/** The stacks a replica holds at the end of its events. */
function heldBy(events: readonly WatchEvent[]): string[] {
  const held = new Set<string>();
  for (const e of events) {
    if (e.event === 'lease-gained') held.add(e.stack!);
    if (e.event === 'lease-lost') held.delete(e.stack!);
  }
  return [...held].sort();
}
