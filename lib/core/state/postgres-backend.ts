import * as crypto from 'crypto';
import * as os from 'os';
import { Client, Pool, PoolClient } from 'pg';
import { assertReadableFormat, LockedError, LockHandle, LockInfo, RecordChange, StateBackend, StateDocument } from './state-model';

/** Default table of states; its lock and journal tables are the same name with `_locks` and `_journal` in place of `_state`. */
export const DEFAULT_STATE_TABLE = 'converge_state';

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** How long a contender waits for a holder that has the advisory lock but has not yet written its lock row. */
const HOLDER_ROW_WAIT_MS = 2000;

/** The server process holding an advisory lock (key halves $5 and $6), as `SELECT pid`. */
const HOLDER_SQL = "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1 " +
  'AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND classid = $5::bigint::oid AND objid = $6::bigint::oid';

/** A row of the lock table: who holds the lock, and the database session that holds it. */
interface LockRow extends LockInfo {
  readonly backend_pid: number;
}

/**
 * State in PostgreSQL (`CONVERGE_STATE=postgres://user:pass@host:port/db?table=schema.name`):
 * one row per stack in `converge_state` (or the `table` parameter), every write a
 * transaction that checks lineage and that the serial moves forward; the stack's lock is
 * a session advisory lock held on a dedicated connection for the whole run, so the server
 * releases it when the process dies. Who holds it is recorded in `converge_locks`
 * (`<table>_locks` for another table name); a row whose session no longer holds the
 * advisory lock is stale and ignored.
 *
 * Between two whole writes, the changes of each batch of operations are appended to
 * `converge_journal` (one row per batch, one statement: a round trip) rather than rewriting the
 * stack's whole document; `read` replays them, and a whole write (every few hundred batches and at
 * the end of a run) deletes them in its transaction. While this process holds a stack's lock, its
 * writes go through the session that holds the lock: the server runs them only while that session
 * (so the lock) lives, with no lock check per statement.
 */
export class PostgresBackend implements StateBackend {
  private readonly pool: Pool;
  private readonly where: string;
  private readonly schema?: string;
  private readonly tableName: string;
  private readonly stateTable: string;
  private readonly lockTable: string;
  private readonly journalTable: string;
  private ready?: Promise<void>;
  private readonly held = new Set<() => Promise<void>>();
  /** Locks this process holds, by stack: the server session holding each, and why it was lost if it was. */
  private readonly mine = new Map<string, HeldLock>();

  constructor(url: string) {
    const u = new URL(url);
    const table = u.searchParams.get('table') ?? DEFAULT_STATE_TABLE;
    u.searchParams.delete('table');
    const parts = table.split('.');
    if (parts.length > 2 || !parts.every((p) => IDENT.test(p))) {
      throw new Error(`CONVERGE_STATE: table "${table}" must be "name" or "schema.name" (letters, digits and '_')`);
    }
    this.schema = parts.length === 2 ? parts[0] : undefined;
    this.tableName = parts[parts.length - 1];
    const base = this.tableName.endsWith('_state') ? this.tableName.slice(0, -'_state'.length) : this.tableName;
    const q = (name: string) => (this.schema ? `"${this.schema}"."${name}"` : `"${name}"`);
    this.stateTable = q(this.tableName);
    this.lockTable = q(`${base}_locks`);
    this.journalTable = q(`${base}_journal`);
    const db = decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default database)';
    this.where = `${u.hostname || 'localhost'}${u.port ? `:${u.port}` : ''}/${db}, table ${this.schema ? `${this.schema}.` : ''}${this.tableName}`;
    this.pool = new Pool({ connectionString: u.toString(), max: 4, allowExitOnIdle: true });
    // An idle connection closed by the server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
    sayWhereErrorsComeFrom(this, `state backend (postgres ${this.where})`);
  }

  public describe(): string {
    return `postgres (${this.where})`;
  }

  public async read(stack: string): Promise<StateDocument | undefined> {
    await this.ensureTables();
    // The document and the journal rows written since, in one round trip.
    const r = await this.pool.query<{ document: StateDocument; journal: { serial: number; changes: RecordChange[] }[] }>(
      `SELECT s.document, (SELECT coalesce(jsonb_agg(jsonb_build_object('serial', j.serial, 'changes', j.changes) ORDER BY j.serial), '[]'::jsonb) ` +
      `FROM ${this.journalTable} j WHERE j.stack = s.stack AND j.lineage = s.lineage AND j.serial > s.serial) AS journal ` +
      `FROM ${this.stateTable} s WHERE s.stack = $1`, [stack]);
    let doc = r.rows[0]?.document;
    if (!doc) return undefined;
    assertReadableFormat(doc, `the state of stack "${stack}" in ${this.describe()}`);
    const journal = r.rows[0].journal;
    if (!journal.length) return doc;
    const resources = { ...doc.resources };
    for (const entry of journal) {
      for (const c of entry.changes) { if (c.record) resources[c.address] = c.record; else delete resources[c.address]; }
    }
    return { ...doc, serial: Number(journal[journal.length - 1].serial), resources };
  }

  /**
   * One statement, so one round trip and its own transaction: the row is inserted only while this
   * session's lock is held (the fence of `write`) and the stack's row has this lineage and an older serial.
   */
  public async append(stack: string, lineage: string, serial: number, changes: RecordChange[]): Promise<void> {
    this.assertLockHeld(stack);
    await this.ensureTables();
    const mine = this.mine.get(stack);
    const params: unknown[] = [stack, serial, lineage, JSON.stringify(changes)];
    const text = `INSERT INTO ${this.journalTable} (stack, serial, lineage, changes) SELECT $1::text, $2::bigint, $3::text, $4::jsonb ` +
      `WHERE EXISTS (SELECT 1 FROM ${this.stateTable} WHERE stack = $1 AND lineage = $3 AND serial < $2::bigint)`;
    // Under a lock, on the session that holds it: the statement runs only while the lock is held (a
    // session that lost it is gone), so no lock check per row is needed, and it is prepared once.
    const r = mine ? await this.onSession(stack, mine, (c) => c.query({ name: 'converge_journal_append', text, values: params }))
      : await this.pool.query(text, params);
    if (r.rowCount === 1) return;
    throw new Error(`refusing to append to the state of stack "${stack}": ${this.describe()} holds no state of lineage ${lineage} ` +
      `older than serial ${serial} (another run wrote it)`);
  }

  public async write(doc: StateDocument, options: { force?: boolean } = {}): Promise<void> {
    this.assertLockHeld(doc.stack);
    await this.ensureTables();
    const mine = this.mine.get(doc.stack);
    // Under a lock, on the session that holds it (see append); else on a connection of the pool.
    const inTransaction = (fn: (c: Queryable) => Promise<void>): Promise<void> => (mine
      ? this.onSession(doc.stack, mine, (c) => inTransactionOn(c, fn)) : this.transaction(fn));
    await inTransaction(async (c) => {
      const cur = await c.query<{ serial: string; lineage: string }>(
        `SELECT serial, lineage FROM ${this.stateTable} WHERE stack = $1 FOR UPDATE`, [doc.stack]);
      const row = cur.rows[0];
      if (row) {
        if (!options.force && row.lineage !== doc.lineage) {
          throw new Error(`refusing to write the state of stack "${doc.stack}": its lineage ${doc.lineage} differs from ` +
            `the lineage ${row.lineage} stored in ${this.describe()} (they are unrelated states)`);
        }
        if (!options.force && !(doc.serial > Number(row.serial))) {
          throw new Error(`refusing to write the state of stack "${doc.stack}" with serial ${doc.serial}: ` +
            `${this.describe()} already holds serial ${row.serial} (another run wrote it; the serial only moves forward)`);
        }
        await c.query(`UPDATE ${this.stateTable} SET serial = $2, lineage = $4, document = $3, updated_at = now() WHERE stack = $1`,
          [doc.stack, doc.serial, JSON.stringify(doc), doc.lineage]);
      } else {
        // ON CONFLICT: another run created the row between our SELECT and INSERT; refuse rather than overwrite.
        const ins = await c.query(`INSERT INTO ${this.stateTable} (stack, serial, lineage, document, updated_at) ` +
          'VALUES ($1, $2, $3, $4, now()) ON CONFLICT (stack) DO NOTHING', [doc.stack, doc.serial, doc.lineage, JSON.stringify(doc)]);
        if (ins.rowCount !== 1) throw new Error(`refusing to write the state of stack "${doc.stack}": another run created it meanwhile`);
      }
      // The document holds every change appended so far.
      await c.query(`DELETE FROM ${this.journalTable} WHERE stack = $1`, [doc.stack]);
    });
  }

  public async lock(stack: string, operation: string, log: (m: string) => void = () => undefined): Promise<LockHandle> {
    await this.ensureTables();
    const key = this.lockKey(stack);
    // A dedicated session: the advisory lock lives exactly as long as this connection.
    const session = new Client({ connectionString: this.connectionString() });
    // Until the lock is held an error only fails the attempt; once held, losing the session loses the lock.
    let onLoss: (why: string) => void = () => undefined;
    session.on('error', (e) => onLoss(`its database session failed: ${e.message}`));
    session.on('end', () => onLoss('its database session ended'));
    await session.connect();
    try {
      const got = await session.query<{ ok: boolean; backend_pid: number }>(
        'SELECT pg_try_advisory_lock($1::bigint) AS ok, pg_backend_pid() AS backend_pid', [key.toString()]);
      if (!got.rows[0].ok) throw new LockedError(stack, await this.holder(stack, key));
      const info: LockInfo = {
        id: crypto.randomUUID(), who: `${os.userInfo().username}@${os.hostname()}`, host: os.hostname(), pid: process.pid,
        operation, since: new Date().toISOString(),
      };
      const stale = await session.query<LockRow>(`SELECT * FROM ${this.lockTable} WHERE stack = $1`, [stack]);
      if (stale.rows[0]) {
        const s = stale.rows[0];
        log(`converge: replacing a stale lock record of stack "${stack}" (${s.operation} by pid ${s.pid} on ${s.host} since ${s.since}; its session is gone)`);
      }
      await session.query(
        `INSERT INTO ${this.lockTable} (stack, id, who, host, pid, operation, since, backend_pid) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ` +
        'ON CONFLICT (stack) DO UPDATE SET id = EXCLUDED.id, who = EXCLUDED.who, host = EXCLUDED.host, pid = EXCLUDED.pid, ' +
        'operation = EXCLUDED.operation, since = EXCLUDED.since, backend_pid = EXCLUDED.backend_pid',
        [stack, info.id, info.who, info.host, info.pid, info.operation, info.since, got.rows[0].backend_pid]);
      let released = false;
      const mine: HeldLock = { backendPid: got.rows[0].backend_pid, key, session, queue: Promise.resolve() };
      this.mine.set(stack, mine);
      onLoss = (why) => { if (!released) mine.lost ??= why; };
      const release = async (): Promise<void> => {
        if (released) return;
        released = true;
        this.held.delete(release);
        if (this.mine.get(stack) === mine) this.mine.delete(stack);
        try {
          await mine.queue; // never inside a write's transaction
          await session.query(`DELETE FROM ${this.lockTable} WHERE stack = $1 AND id = $2`, [stack, info.id]);
          await session.query('SELECT pg_advisory_unlock($1::bigint)', [key.toString()]);
        } catch {
          // The session is gone (server restart, force-unlock): the server has already dropped the lock.
        } finally {
          await session.end().catch(() => undefined);
        }
      };
      this.held.add(release);
      return { info, release };
    } catch (e) {
      await session.end().catch(() => undefined);
      throw e;
    }
  }

  public async forceUnlock(stack: string, lockId: string): Promise<void> {
    await this.ensureTables();
    const key = this.lockKey(stack);
    const r = await this.pool.query<LockRow>(`SELECT * FROM ${this.lockTable} WHERE stack = $1`, [stack]);
    const row = r.rows[0];
    const holderPid = await this.holderPid(key);
    if (!row) {
      throw new Error(holderPid === undefined ? `stack "${stack}" is not locked`
        : `stack "${stack}" is locked by server session ${holderPid} without a lock record; end that session with pg_terminate_backend(${holderPid}) if it is stuck`);
    }
    if (row.id !== lockId) throw new Error(`lock id ${lockId} does not match the lock of stack "${stack}" (${row.id})`);
    if (holderPid !== undefined) {
      const t = await this.pool.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [holderPid]);
      if (!t.rows[0].ok) throw new Error(`could not end server session ${holderPid} that holds the lock of stack "${stack}"`);
      // The server drops the lock once that session has exited.
      for (let i = 0; i < 100 && (await this.holderPid(key)) !== undefined; i++) await sleep(50);
    }
    await this.pool.query(`DELETE FROM ${this.lockTable} WHERE stack = $1 AND id = $2`, [stack, lockId]);
  }

  public async stacks(): Promise<string[]> {
    await this.ensureTables();
    const r = await this.pool.query<{ stack: string }>(`SELECT stack FROM ${this.stateTable} ORDER BY stack`);
    return r.rows.map((x) => x.stack);
  }

  public async close(): Promise<void> {
    await Promise.all([...this.held].map((release) => release()));
    await this.pool.end();
  }

  /** Refuses a write once the lock of its stack was lost (the server ended the session that held it). */
  private assertLockHeld(stack: string): void {
    const lost = this.mine.get(stack)?.lost;
    if (lost) throw this.lostError(stack, lost);
  }

  /**
   * Runs `fn` on the session that holds the stack's lock, one at a time (a transaction is never
   * interleaved with another statement). A statement that fails because the server ended that
   * session (pg_terminate_backend, a restart, an idle timeout) loses the lock: from then on another
   * run may hold it, so nothing more is written.
   */
  private onSession<T>(stack: string, mine: HeldLock, fn: (c: Client) => Promise<T>): Promise<T> {
    const run = mine.queue.then(async () => {
      this.assertLockHeld(stack);
      try {
        return await fn(mine.session);
      } catch (e) {
        if (mine.lost || (await this.holderPid(mine.key).catch(() => undefined)) !== mine.backendPid) {
          mine.lost ??= `its database session (server process ${mine.backendPid}) no longer holds it`;
          throw this.lostError(stack, mine.lost);
        }
        throw e;
      }
    });
    mine.queue = run.then(() => undefined, () => undefined);
    return run;
  }

  private lostError(stack: string, why: string): Error {
    return new Error(`lost the lock of stack "${stack}" in ${this.describe()}: ${why}; refusing to write state, since another run ` +
      'may hold the lock now. What this run did after that is not recorded: run converge plan to see where things stand');
  }

  /** The holder of a taken lock, from its record; waits briefly for a holder that is between locking and recording. */
  private async holder(stack: string, key: bigint): Promise<LockInfo> {
    const deadline = Date.now() + HOLDER_ROW_WAIT_MS;
    let pid: number | undefined;
    for (;;) {
      pid = await this.holderPid(key);
      const r = await this.pool.query<LockRow>(`SELECT * FROM ${this.lockTable} WHERE stack = $1`, [stack]);
      const row = r.rows[0];
      if (row && pid !== undefined && row.backend_pid === pid) {
        return { id: row.id, who: row.who, host: row.host, pid: row.pid, operation: row.operation, since: row.since };
      }
      if (Date.now() > deadline) break;
      await sleep(50);
    }
    return { id: '(none)', who: 'an unknown session', host: 'the database server', pid: pid ?? 0, operation: 'unknown operation', since: 'unknown' };
  }

  /** The server process id of the session holding the stack's advisory lock, if any. */
  private async holderPid(key: bigint, via: Pick<PoolClient, 'query'> = this.pool): Promise<number | undefined> {
    const u = BigInt.asUintN(64, key);
    const r = await via.query<{ pid: number }>(HOLDER_SQL.replace('$5', '$1').replace('$6', '$2'),
      [(u >> 32n).toString(), (u & 0xffffffffn).toString()]);
    return r.rows[0]?.pid;
  }

  /** A stable signed 64-bit key from the table and stack names. */
  private lockKey(stack: string): bigint {
    const h = crypto.createHash('sha256').update(`converge\0${this.stateTable}\0${stack}`).digest();
    return h.readBigInt64BE(0);
  }

  private ensureTables(): Promise<void> {
    this.ready ??= this.transaction(async (c) => {
      // Serializes concurrent first uses: two CREATE TABLE IF NOT EXISTS at once can still collide.
      await c.query('SELECT pg_advisory_xact_lock($1::bigint)', [this.lockKey('\0schema').toString()]);
      if (this.schema) await c.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
      await c.query(`CREATE TABLE IF NOT EXISTS ${this.stateTable} (stack text PRIMARY KEY, serial bigint NOT NULL, ` +
        'lineage text NOT NULL, document jsonb NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())');
      await c.query(`CREATE TABLE IF NOT EXISTS ${this.lockTable} (stack text PRIMARY KEY, id text NOT NULL, who text NOT NULL, ` +
        'host text NOT NULL, pid integer NOT NULL, operation text NOT NULL, since text NOT NULL, backend_pid integer NOT NULL)');
      await c.query(`CREATE TABLE IF NOT EXISTS ${this.journalTable} (stack text NOT NULL, serial bigint NOT NULL, lineage text NOT NULL, ` +
        'changes jsonb NOT NULL, PRIMARY KEY (stack, serial))');
    }).catch((e) => {
      this.ready = undefined;
      throw e;
    });
    return this.ready;
  }

  private async transaction(fn: (c: PoolClient) => Promise<void>): Promise<void> {
    const c = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await inTransactionOn(c, fn);
    } catch (e) {
      // A connection that could not even roll back is dropped from the pool rather than reused.
      broken = (e as { rollbackFailed?: Error }).rollbackFailed;
      throw e;
    } finally {
      c.release(broken);
    }
  }

  private connectionString(): string {
    return (this.pool.options as { connectionString: string }).connectionString;
  }
}

/**
 * Prefixes the message of every error the backend's operations throw with where it comes from
 * (`state backend (postgres host:5432/db, table converge_state): connect ECONNREFUSED …`), so
 * that a database failure is not mistaken for an API's. The error object is kept (its class and
 * code); a lock held by another run (LockedError) already says where.
 */
function sayWhereErrorsComeFrom(backend: PostgresBackend, where: string): void {
  const methods = ['read', 'write', 'append', 'lock', 'forceUnlock', 'stacks'] as const;
  for (const name of methods) {
    const original = (backend[name] as (...args: unknown[]) => Promise<unknown>).bind(backend);
    Object.defineProperty(backend, name, {
      value: (...args: unknown[]) => original(...args).catch((e: unknown) => {
        // Duck-typed: errors of Node's own modules may come from another realm (a test runner's).
        if (e && typeof (e as Error).message === 'string' && !(e instanceof LockedError) && !(e as Error).message.startsWith('state backend')) {
          const err = e as Error;
          err.message = `${where}: ${err.message}`;
          if (err.stack) err.stack = `${err.name}: ${err.message}\n${err.stack.split('\n').slice(1).join('\n')}`;
        }
        throw e;
      }),
    });
  }
}

/** What a statement runs on: a connection of the pool or the lock's own session. */
type Queryable = Pick<Client, 'query'>;

/** A lock this process holds: the session holding it (its writes go through it, one at a time), and why it was lost if it was. */
interface HeldLock {
  readonly backendPid: number;
  readonly key: bigint;
  readonly session: Client;
  queue: Promise<void>;
  lost?: string;
}

/** BEGIN, `fn`, COMMIT on one connection; ROLLBACK on failure (a failed ROLLBACK is attached to the error as `rollbackFailed`). */
async function inTransactionOn<C extends Queryable>(c: C, fn: (c: C) => Promise<void>): Promise<void> {
  await c.query('BEGIN');
  try {
    await fn(c);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch((err: Error) => { if (e && typeof e === 'object') (e as { rollbackFailed?: Error }).rollbackFailed = err; });
    throw e;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
