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
}

/**
 * Leases in PostgreSQL, shared by any number of replicas on any number of machines. Each replica
 * beats every `heartbeatMs / 2`: it records itself as alive, renews its leases for `1.5 x
 * heartbeatMs` (by the server's clock, so machines' clocks do not matter), takes free or expired
 * leases up to its fair share (the stacks divided by the live replicas) and gives back what it
 * holds above it. A replica that dies (SIGKILL, a lost connection) stops renewing: its leases
 * expire within 1.5 heartbeats and another replica's next beat, at most half a heartbeat later,
 * takes them: a stack is without a watcher for at most two heartbeats. A replica that cannot
 * renew stops treating its leases as held once they may have expired.
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

  constructor(url: string, private readonly heartbeatMs: number, private readonly table = 'converge_watch',
    private readonly log: (m: string) => void = () => undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Pool: PgPool } = require('pg') as typeof import('pg');
    this.pool = new PgPool({ connectionString: url, max: 2, allowExitOnIdle: true, connectionTimeoutMillis: heartbeatMs });
    this.pool.on('error', () => undefined);
  }

  private get ttlMs(): number { return Math.round(this.heartbeatMs * 1.5); }

  public holds(stack: string): boolean {
    const until = this.held.get(stack);
    return until !== undefined && Date.now() < until;
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

  /** One heartbeat: alive, renew, take up to the fair share, give back the excess. */
  private async beat(): Promise<void> {
    const before = new Set([...this.held.keys()].filter((s) => this.holds(s)));
    const started = Date.now();
    try {
      const ttl = `${this.ttlMs} milliseconds`;
      await this.pool.query(`INSERT INTO ${this.table}_replicas (holder, seen_at) VALUES ($1, now()) ON CONFLICT (holder) DO UPDATE SET seen_at = now()`, [this.me]);
      const live = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.table}_replicas WHERE seen_at > now() - $1::interval`, [ttl]);
      const share = Math.ceil(this.stacks.length / Math.max(1, Number(live.rows[0].n)));
      const renewed = await this.pool.query<{ stack: string }>(
        `UPDATE ${this.table}_leases SET expires_at = now() + $2::interval WHERE holder = $1 AND stack = ANY($3) RETURNING stack`, [this.me, ttl, this.stacks]);
      const until = started + this.ttlMs;
      this.held.clear();
      for (const r of renewed.rows) this.held.set(r.stack, until);
      // Free or expired leases, in an order of this replica's own so that replicas do not all try the same first.
      const order = this.stacks.filter((s) => !this.held.has(s))
        .sort((a, b) => hash(this.me + a).localeCompare(hash(this.me + b)));
      for (const stack of order) {
        if (this.held.size >= share) break;
        const r = await this.pool.query<{ stack: string }>(
          `INSERT INTO ${this.table}_leases (stack, holder, expires_at) VALUES ($1, $2, now() + $3::interval) ` +
          `ON CONFLICT (stack) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at WHERE ${this.table}_leases.expires_at < now() ` +
          'RETURNING stack', [stack, this.me, ttl]);
        if (r.rowCount) this.held.set(stack, until);
      }
      // Above the fair share (a replica joined): give back the last ones, for the newcomer's next beat.
      const excess = [...this.held.keys()].sort().slice(share);
      for (const stack of excess) {
        await this.pool.query(`DELETE FROM ${this.table}_leases WHERE stack = $1 AND holder = $2`, [stack, this.me]);
        this.held.delete(stack);
      }
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

function hash(s: string): string {
  return crypto.createHash('sha256').update(s).digest('hex');
}
