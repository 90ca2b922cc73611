import { ChildProcessWithoutNullStreams, spawn } from 'child_process';
import * as path from 'path';
import { Client } from 'pg';
import { PostgresBackend } from '../../lib/core/state/postgres-backend';
import { LockedError, StateDocument, StateRecord } from '../../lib/core/state/state-model';
import { StateStore } from '../../lib/core/state/state-store';
import { startPostgres, TestPostgres } from '../support/postgres';

process.env.CONVERGE_STATE_KEY = '207abe08218563fad1f60169d3d5af0dc51c95c013eac02a1d61148542fe0894'; // 32 bytes as hex

const rec = (id: string): StateRecord => ({ kind: 'secrets.KvSecret', status: 'created', id, spec: { path: id, n: 1 }, hmacs: {},
  outputs: { version: 2 }, dependsOn: [], removalPolicy: 'destroy', provider: { api: 'secrets', addressEnv: 'A', tokenEnv: 'T' } });
const doc = (stack: string, serial: number, lineage: string, resources: Record<string, StateRecord> = {}): StateDocument =>
  ({ version: 1, stack, serial, lineage, resources });

let pg: TestPostgres;
const backends: PostgresBackend[] = [];
/** A backend closed after each test. */
const open = (query = ''): PostgresBackend => {
  const b = new PostgresBackend(pg.url + query);
  backends.push(b);
  return b;
};
async function sql<T extends object>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: pg.url });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

beforeAll(async () => { pg = await startPostgres(); });
afterAll(async () => { await pg?.stop(); });
afterEach(async () => { await Promise.all(backends.splice(0).map((b) => b.close())); });

describe('PostgreSQL state backend', () => {
  test('creates its tables on first use, in the default or the configured table', async () => {
    const tables = async () => (await sql<{ t: string }>(
      "SELECT table_schema || '.' || table_name AS t FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")).map((r) => r.t);
    expect(await tables()).toEqual([]);
    expect(await open().stacks()).toEqual([]);
    expect(await tables()).toEqual(['public.converge_journal', 'public.converge_locks', 'public.converge_state']);
    const custom = open('?table=infra.team_state');
    expect(custom.describe()).toContain('table infra.team_state');
    await custom.write(doc('prod', 1, 'L'));
    expect(await tables()).toEqual(['infra.team_journal', 'infra.team_locks', 'infra.team_state', 'public.converge_journal', 'public.converge_locks', 'public.converge_state']);
    expect(await open().stacks()).toEqual([]);
    const cols = await sql<{ column_name: string; data_type: string }>(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'converge_state' ORDER BY ordinal_position");
    expect(cols.map((c) => `${c.column_name} ${c.data_type}`)).toEqual(
      ['stack text', 'serial bigint', 'lineage text', 'document jsonb', 'updated_at timestamp with time zone']);
    expect(() => new PostgresBackend(`${pg.url}?table=x;drop`)).toThrow(/table "x;drop"/);
  });

  test('round-trips documents, one row per stack, through StateStore writes', async () => {
    const b = open();
    expect(await b.read('rt')).toBeUndefined();
    const s = await StateStore.open(b, 'rt');
    await s.put('secrets.a', rec('a'));
    await s.put('secrets.b', rec('b'));
    await s.put('secrets.a', undefined);
    const other = open();
    const back = await other.read('rt');
    // Written through StateStore: each record authenticated (mac), the document marked so.
    expect(back).toEqual({ version: 1, stack: 'rt', serial: 3, lineage: s.lineage, resources: { 'secrets.b': { ...rec('b'), mac: expect.any(String) } },
      keyCheck: expect.any(String), authenticated: true });
    // The first put wrote the whole document; the next two were appended, a row each, replayed by read.
    const journal = () => sql<{ serial: string }>("SELECT serial FROM converge_journal WHERE stack = 'rt' ORDER BY serial");
    expect(await journal()).toEqual([{ serial: '2' }, { serial: '3' }]);
    // flush() writes the whole document and empties the journal in the same transaction.
    await s.flush();
    expect(await journal()).toEqual([]);
    expect(await other.read('rt')).toEqual(back);
    await other.write(doc('rt-2', 1, 'L2', { x: rec('x') }));
    expect(await b.stacks()).toEqual(expect.arrayContaining(['rt', 'rt-2']));
    const rows = await sql<{ stack: string; serial: string; lineage: string }>(
      "SELECT stack, serial, lineage FROM converge_state WHERE stack LIKE 'rt%' ORDER BY stack");
    expect(rows).toEqual([{ stack: 'rt', serial: '3', lineage: s.lineage }, { stack: 'rt-2', serial: '1', lineage: 'L2' }]);
  });

  test('refuses a write with another lineage or a serial that does not move forward', async () => {
    const b = open();
    await b.write(doc('checks', 5, 'lineage-1', { a: rec('a') }));
    await expect(b.write(doc('checks', 6, 'lineage-2'))).rejects.toThrow(/lineage lineage-2 differs from the lineage lineage-1/);
    await expect(b.write(doc('checks', 5, 'lineage-1'))).rejects.toThrow(/serial 5: .* already holds serial 5/);
    await expect(b.write(doc('checks', 4, 'lineage-1'))).rejects.toThrow(/serial 4: .* already holds serial 5/);
    expect(await b.read('checks')).toEqual(doc('checks', 5, 'lineage-1', { a: rec('a') }));
    await b.write(doc('checks', 7, 'lineage-1'));
    expect((await b.read('checks'))?.serial).toBe(7);
    // An append is refused on the same grounds, and changes nothing.
    await expect(b.append('checks', 'lineage-2', 8, [{ address: 'b', record: rec('b') }])).rejects.toThrow(/no state of lineage lineage-2 older than serial 8/);
    await expect(b.append('checks', 'lineage-1', 7, [{ address: 'b', record: rec('b') }])).rejects.toThrow(/no state of lineage lineage-1 older than serial 7/);
    expect(await b.read('checks')).toEqual(doc('checks', 7, 'lineage-1'));
    await b.append('checks', 'lineage-1', 8, [{ address: 'b', record: rec('b') }]);
    await b.append('checks', 'lineage-1', 9, [{ address: 'b' }, { address: 'c', record: rec('c') }]);
    expect(await b.read('checks')).toEqual(doc('checks', 9, 'lineage-1', { c: rec('c') }));
  });

  test('the lock is exclusive across two backends and the loser learns who holds it', async () => {
    const a = open();
    const b = open();
    const held = await a.lock('excl', 'apply');
    const err = await b.lock('excl', 'plan').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockedError);
    expect((err as LockedError).holder).toEqual(held.info);
    expect((err as LockedError).message).toContain(`pid ${process.pid}`);
    expect((err as LockedError).message).toContain(`apply since ${held.info.since}`);
    // Another stack is not affected.
    await (await b.lock('excl-other', 'plan')).release();
    await held.release();
    expect(await sql("SELECT * FROM converge_locks WHERE stack = 'excl'")).toEqual([]);
    const again = await b.lock('excl', 'plan');
    expect(again.info.operation).toBe('plan');
    await again.release();
  });

  test('a lock record whose session is gone is stale and replaced', async () => {
    await open().stacks();
    await sql("INSERT INTO converge_locks (stack, id, who, host, pid, operation, since, backend_pid) VALUES ('stale', 'old', 'ghost', 'h', 1, 'apply', 'then', 1)");
    const logs: string[] = [];
    const h = await open().lock('stale', 'apply', (m) => logs.push(m));
    expect(logs.join("\n")).toMatch(/stale lock record of stack "stale" \(apply by pid 1 on h since then/);
    expect((await sql<{ id: string }>("SELECT id FROM converge_locks WHERE stack = 'stale'")).map((r) => r.id)).toEqual([h.info.id]);
    await h.release();
  });

  test('a lock whose server session is terminated is lost: every further write is refused, another run can lock', async () => {
    const a = open();
    const held = await a.lock('lost', 'apply');
    const s = await StateStore.open(a, 'lost');
    await s.put('secrets.a', rec('a'));
    const [{ backend_pid: pid }] = await sql<{ backend_pid: number }>("SELECT backend_pid FROM converge_locks WHERE stack = 'lost'");
    const [{ ok }] = await sql<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [pid]);
    expect(ok).toBe(true);
    // Once that server process has exited (until then it still holds the lock, and no one else can take it)...
    // (Bounded only against a hang: a busy machine is slow, not wrong.)
    for (let i = 0; i < 8000 && (await sql('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).length > 0; i++) await new Promise((r) => setTimeout(r, 25));
    // ...a write is refused whether or not the client has noticed yet: it checks the lock inside its transaction.
    await expect(s.put('secrets.b', rec('b'))).rejects.toThrow(/lost the lock of stack "lost" in postgres \(.*\): .*refusing to write state/);
    // Once the server has dropped the lock another run takes it; the first still writes nothing.
    const b = open();
    let other;
    for (let i = 0; i < 4000 && !other; i++) {
      other = await b.lock('lost', 'apply').catch((e: unknown) => {
        if (!(e instanceof LockedError)) throw e;
        return new Promise<undefined>((r) => setTimeout(() => r(undefined), 50));
      });
    }
    expect(other).toBeDefined();
    await expect(a.write({ ...s.document, serial: 99 })).rejects.toThrow(/lost the lock of stack "lost"/);
    expect((await b.read('lost'))?.resources).toEqual({ 'secrets.a': { ...rec('a'), mac: expect.any(String) } });
    await held.release();
    // The first run's release did not remove the second run's lock.
    expect((await sql<{ id: string }>("SELECT id FROM converge_locks WHERE stack = 'lost'")).map((r) => r.id)).toEqual([other!.info.id]);
    await other!.release();
  });

  test('the server releases the lock when the holding process is killed with SIGKILL', async () => {
    const child = holder('killed');
    const id = await lockedId(child);
    const err = await open().lock('killed', 'apply').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockedError);
    expect((err as LockedError).holder).toMatchObject({ id, pid: child.pid });
    await kill9(child);
    // The server notices the dropped connection on its own; no force-unlock needed.
    let h;
    for (let i = 0; i < 2000 && !h; i++) {
      h = await open().lock('killed', 'apply').catch((e: unknown) => {
        if (!(e instanceof LockedError)) throw e;
        return new Promise<undefined>((r) => setTimeout(() => r(undefined), 100));
      });
    }
    expect(h).toBeDefined();
    expect(h!.info.id).not.toBe(id);
    await h!.release();
  });

  test('force-unlock ends the holding session only for the right lock id', async () => {
    const child = holder('forced');
    try {
      const id = await lockedId(child);
      const b = open();
      await expect(b.forceUnlock('forced', 'wrong-id')).rejects.toThrow(`lock id wrong-id does not match the lock of stack "forced" (${id})`);
      await expect(b.lock('forced', 'apply')).rejects.toBeInstanceOf(LockedError);
      await b.forceUnlock('forced', id);
      const h = await b.lock('forced', 'apply');
      await h.release();
      await expect(b.forceUnlock('forced', id)).rejects.toThrow('stack "forced" is not locked');
    } finally {
      await kill9(child);
    }
  });

  test('describe() names the server, database and table but never the password', () => {
    const u = new URL(pg.url);
    expect(u.password).not.toBe('');
    const d = open().describe();
    expect(d).toBe(`postgres (127.0.0.1:${u.port}/postgres, table converge_state)`);
    expect(d).not.toContain(u.password);
    expect(new PostgresBackend('postgres://alice:s3cr%40t@db.example:5433/infra?sslmode=disable').describe()).toBe('postgres (db.example:5433/infra, table converge_state)');
  });
});

/** A child process that takes the lock of `stack` with the TypeScript sources and keeps it. */
function holder(stack: string): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fixtures', 'pg-lock-holder.ts'), pg.url, stack],
    { cwd: path.resolve(__dirname, '../..') });
}

function lockedId(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /locked (\S+)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => reject(new Error(`lock holder exited (${code}): ${err}`)));
  });
}

function kill9(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
