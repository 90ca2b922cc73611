import * as crypto from 'crypto';
import * as os from 'os';
import type { Pool } from 'pg';

/**
 * Which stacks this watcher reconciles. Every cycle also holds the stack's state lock, so two
 * cycles of one stack never run at once whatever the leases say; the leases spread the stacks
 * over replicas and hand a dead replica's stacks over.
 */
export interface StackLeases {
  /** This replica's name in events and in the lease table. */
  readonly me: string;
  holds(stack: string): boolean;
  /** Takes the first leases and keeps them by heartbeat; `changed` is told of every stack gained or lost. */
  start(stacks: readonly string[], changed: (gained: string[], lost: string[]) => void): Promise<void>;
  /** Stops the heartbeat and gives every lease back. */
  stop(): Promise<void>;
  /** Stacks of this replica's set that no live replica holds, as far as it knows (`/readyz` is not ready while any). */
  unheld(): string[];
}

/** One watcher per state (the local backend): it holds every stack. */
export class SoleLeases implements StackLeases {
  public readonly me = `${os.hostname()}:${process.pid}`;
  private stacks = new Set<string>();
  public holds(stack: string): boolean { return this.stacks.has(stack); }
  public async start(stacks: readonly string[], changed: (gained: string[], lost: string[]) => void): Promise<void> {
    this.stacks = new Set(stacks);
    changed([...stacks], []);
  }
  public async stop(): Promise<void> { this.stacks.clear(); }
  public unheld(): string[] { return []; }
}

/**
 * Leases in PostgreSQL, shared by any number of replicas on any number of machines. A lease is keyed
 * by the state location and the stack (`<state table>/<stack>`, e.g. `prod.converge_state/api`): two
 * states in one database with the same stack names have leases of their own. Each replica beats every
 * `heartbeatMs / 2`: it records itself as alive with the leases it watches, renews its leases for `1.5
 * x heartbeatMs` (by the server's clock, so machines' clocks do not matter), takes free leases up to
 * its fair share and gives back what it holds above it, to a replica that watches that stack and has
 * room for it. A lease is free when it expired or its holder is not a live replica (no heartbeat
 * within the lease time): a lease row written by anything else holds nobody off.
 *
 * The fair share counts only the replicas that watch a stack: each stack counts 1/n for each of its n
 * live watchers, and a replica's share is the sum over its stacks, rounded up. A free stack whose
 * other watchers are all at their share is taken even above it, so that no stack is left to nobody.
 *
 * A replica that dies (SIGKILL, a lost connection) stops renewing: its leases expire within 1.5
 * heartbeats and another replica's next beat, at most half a heartbeat later, takes them: a stack is
 * without a watcher for at most two heartbeats. A replica that cannot renew stops treating its leases
 * as held once they may have expired, and reports every stack of its set as held by nobody it knows.
 */
export class PostgresLeases implements StackLeases {
  public readonly me = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private readonly pool: Pool;
  private readonly held = new Map<string, number>();
  private stacks: string[] = [];
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private beating?: Promise<void>;
  private changed: (gained: string[], lost: string[]) => void = () => undefined;
  /** Stacks of this replica's set that no live replica held at the last beat, and until when that beat's word holds. */
  private orphans: string[] = [];
  private knownUntil = 0;

  /**
   * @param location the state location the stacks are in (`schema.table` of the state): part of each lease's key
   */
  constructor(url: string, private readonly heartbeatMs: number, private readonly location: string, private readonly table = 'converge_watch',
    private readonly log: (m: string) => void = () => undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Pool: PgPool } = require('pg') as typeof import('pg');
    this.pool = new PgPool({ connectionString: url, max: 2, allowExitOnIdle: true, connectionTimeoutMillis: heartbeatMs });
    this.pool.on('error', () => undefined);
  }

  private get ttlMs(): number { return Math.round(this.heartbeatMs * 1.5); }

  private key(stack: string): string { return `${this.location}/${stack}`; }

  public holds(stack: string): boolean {
    const until = this.held.get(stack);
    return until !== undefined && Date.now() < until;
  }

  public unheld(): string[] {
    return Date.now() < this.knownUntil ? [...this.orphans] : [...this.stacks];
  }

  public async start(stacks: readonly string[], changed: (gained: string[], lost: string[]) => void): Promise<void> {
    this.stacks = [...stacks];
    this.changed = changed;
    // Replicas starting together: CREATE TABLE IF NOT EXISTS is not safe against itself, so one at a time.
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.table}_tables`]);
      await c.query(`CREATE TABLE IF NOT EXISTS ${this.table}_leases (stack text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)`);
      await c.query(`CREATE TABLE IF NOT EXISTS ${this.table}_replicas (holder text PRIMARY KEY, seen_at timestamptz NOT NULL)`);
      // The leases each replica watches (added by this release: a replica of an earlier one watches nothing here).
      await c.query(`ALTER TABLE ${this.table}_replicas ADD COLUMN IF NOT EXISTS watches text[] NOT NULL DEFAULT '{}'`);
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
    await this.beat();
    const tick = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => { this.beating = this.beat().finally(tick); }, this.heartbeatMs / 2);
      this.timer.unref();
    };
    tick();
  }

  /** One heartbeat: alive, renew, take up to the fair share, give back the excess to a replica with room. */
  private async beat(): Promise<void> {
    const before = new Set([...this.held.keys()].filter((s) => this.holds(s)));
    const started = Date.now();
    try {
      const ttl = `${this.ttlMs} milliseconds`;
      const keys = this.stacks.map((s) => this.key(s));
      const stackOf = new Map(this.stacks.map((s) => [this.key(s), s]));
      await this.pool.query(`INSERT INTO ${this.table}_replicas (holder, seen_at, watches) VALUES ($1, now(), $2) ` +
        'ON CONFLICT (holder) DO UPDATE SET seen_at = now(), watches = EXCLUDED.watches', [this.me, keys]);
      // Live: a heartbeat within the lease time, and none from the future (a row no replica wrote by beating).
      const live = `SELECT holder FROM ${this.table}_replicas WHERE seen_at > now() - $1::interval AND seen_at <= now()`;
      const replicas = await this.pool.query<{ holder: string; watches: string[] }>(
        `SELECT holder, watches FROM ${this.table}_replicas WHERE holder IN (${live})`, [ttl]);
      const counts = await this.pool.query<{ holder: string; n: string }>(
        `SELECT holder, count(*) AS n FROM ${this.table}_leases WHERE expires_at > now() AND holder IN (${live}) GROUP BY holder`, [ttl]);
      const room = new Rooms(replicas.rows, counts.rows);

      const renewed = await this.pool.query<{ stack: string }>(
        `UPDATE ${this.table}_leases SET expires_at = now() + $2::interval WHERE holder = $1 AND stack = ANY($3) RETURNING stack`, [this.me, ttl, keys]);
      const until = started + this.ttlMs;
      this.held.clear();
      for (const r of renewed.rows) this.held.set(stackOf.get(r.stack)!, until);
      const share = room.shareOf(this.me);
      // Free leases, in an order of this replica's own so that replicas do not all try the same first.
      const order = this.stacks.filter((s) => !this.held.has(s))
        .sort((a, b) => hash(this.me + a).localeCompare(hash(this.me + b)));
      for (const stack of order) {
        const key = this.key(stack);
        if (this.held.size >= share && room.othersWithRoom(key, this.me).length) continue;
        const r = await this.pool.query<{ stack: string }>(
          `INSERT INTO ${this.table}_leases (stack, holder, expires_at) VALUES ($1, $2, now() + $3::interval) ` +
          `ON CONFLICT (stack) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at ` +
          `WHERE ${this.table}_leases.expires_at < now() OR ${this.table}_leases.holder NOT IN (${live.replace('$1', '$3')}) ` +
          'RETURNING stack', [key, this.me, ttl]);
        if (r.rowCount) {
          this.held.set(stack, until);
          room.took(this.me);
        }
      }
      // Above the fair share (a replica joined): give back the last ones, each only to a replica that watches it and has room.
      for (const stack of [...this.held.keys()].sort().reverse()) {
        if (this.held.size <= share) break;
        const to = room.othersWithRoom(this.key(stack), this.me)[0];
        if (!to) continue;
        await this.pool.query(`DELETE FROM ${this.table}_leases WHERE stack = $1 AND holder = $2`, [this.key(stack), this.me]);
        this.held.delete(stack);
        room.took(to);
      }
      // Readiness: the stacks of this set that no live replica holds now.
      const covered = await this.pool.query<{ stack: string }>(
        `SELECT stack FROM ${this.table}_leases WHERE stack = ANY($2) AND expires_at > now() AND holder IN (${live})`, [ttl, keys]);
      const coveredKeys = new Set(covered.rows.map((r) => r.stack));
      this.orphans = this.stacks.filter((s) => !coveredKeys.has(this.key(s)));
      this.knownUntil = until;
    } catch (e) {
      // Cannot reach the database: what is held stays held only until it may have expired.
      this.log(`converge watch: lease heartbeat failed (${(e as Error).message}); leases lapse unless renewed`);
    }
    const after = new Set([...this.held.keys()].filter((s) => this.holds(s)));
    const gained = [...after].filter((s) => !before.has(s));
    const lost = [...before].filter((s) => !after.has(s));
    if (gained.length || lost.length) this.changed(gained, lost);
  }

  public async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.beating;
    try {
      await this.pool.query(`DELETE FROM ${this.table}_leases WHERE holder = $1`, [this.me]);
      await this.pool.query(`DELETE FROM ${this.table}_replicas WHERE holder = $1`, [this.me]);
    } catch { /* the leases expire by themselves */ }
    this.held.clear();
    await this.pool.end().catch(() => undefined);
  }
}

/** The live replicas, what each watches and how many leases each holds: their fair shares, and who has room for one more. */
class Rooms {
  private readonly watches = new Map<string, Set<string>>();
  private readonly watchers = new Map<string, number>();
  private readonly count = new Map<string, number>();

  constructor(replicas: readonly { holder: string; watches: string[] }[], counts: readonly { holder: string; n: string }[]) {
    for (const r of replicas) {
      this.watches.set(r.holder, new Set(r.watches ?? []));
      for (const k of new Set(r.watches ?? [])) this.watchers.set(k, (this.watchers.get(k) ?? 0) + 1);
    }
    for (const c of counts) this.count.set(c.holder, Number(c.n));
  }

  /** Each stack counts 1/n for each of its n live watchers; at least 1 for a replica that watches anything. */
  public shareOf(holder: string): number {
    let sum = 0;
    for (const k of this.watches.get(holder) ?? []) sum += 1 / Math.max(1, this.watchers.get(k) ?? 1);
    // Rounded up, with a tolerance for floating point (three thirds are one).
    return Math.ceil(sum - 1e-9);
  }

  /** Live replicas other than `me` that watch `key` and hold fewer leases than their share. */
  public othersWithRoom(key: string, me: string): string[] {
    return [...this.watches.entries()].filter(([h, w]) => h !== me && w.has(key) && (this.count.get(h) ?? 0) < this.shareOf(h)).map(([h]) => h);
  }

  public took(holder: string): void {
    this.count.set(holder, (this.count.get(holder) ?? 0) + 1);
  }
}

function hash(s: string): string {
  return crypto.createHash('sha256').update(s).digest('hex');
}
