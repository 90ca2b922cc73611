import * as fs from 'fs';
import * as path from 'path';
import { DesiredStack } from '../../core/model';
import { ApiClients } from '../../core/engine/api-clients';
import { readSynthInput } from '../../core/synth/read-synth';
import { Output } from '../output';
import { tuning } from '../session';
import { WatchMetrics } from '../watch/metrics';
import { PostgresLeases, SoleLeases, StackLeases } from '../watch/replica-leases';
import { WatchReporter } from '../watch/reporter';
import { Watcher } from '../watch/watcher';
import { loadStacks, openBackend, selectStacks } from '../workspace';
import { stateKey } from '../../core/crypto/state-key';

export interface WatchCommandOptions {
  readonly stack?: readonly string[];
  readonly synthDir?: string;
  readonly parallelism?: string;
  readonly interval?: string;
  readonly onDrift?: string;
  readonly applyAppChanges?: boolean;
  readonly json?: boolean;
  readonly metricsListen?: string;
  readonly platformBudget?: string;
  readonly heartbeat?: string;
  readonly meshWait?: string;
}

/** Reads the synth directory again only when one of its stack files changed (size or modification time). */
function synthDirReader(dir: string, first: DesiredStack[]): () => DesiredStack[] {
  let stacks = first;
  const stamp = () => {
    const root = path.join(dir, 'stacks');
    if (!fs.existsSync(root)) return '';
    return fs.readdirSync(root).sort().map((n) => {
      const f = path.join(root, n, 'cdk.tf.json');
      const st = fs.existsSync(f) ? fs.statSync(f) : undefined;
      return `${n}:${st?.size}:${st?.mtimeMs}`;
    }).join('|');
  };
  let seen = stamp();
  return () => {
    const now = stamp();
    if (now !== seen) {
      // A pipeline may be writing it right now: keep what was read until it reads whole.
      try {
        stacks = readSynthInput(dir);
        seen = now;
      } catch { /* read again next cycle */ }
    }
    return stacks;
  };
}

function seconds(v: string | undefined, fallback: number, flag: string, min = 0.01): number {
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isFinite(n) || n < min) throw new Error(`${flag} must be a number of seconds, at least ${min} (got ${v})`);
  return n;
}

/**
 * Where the states are, for the leases' keys: the PostgreSQL state table (`schema.name`, as the
 * `table` parameter gives it), so that two states in one database have leases of their own.
 */
function stateTableOf(url: string): string {
  // The PostgreSQL backend's default table (not imported: that module loads pg, which only shared state needs).
  return new URL(url).searchParams.get('table') ?? 'converge_state';
}

/**
 * `converge watch`: reconciles the app's stacks until SIGTERM or SIGINT (then finishes the cycles
 * in flight, gives its leases and locks back and exits 0). See docs/watch.md.
 */
export async function watchCommand(opts: WatchCommandOptions, out: Output, verbose: boolean): Promise<number> {
  const onDrift = opts.onDrift ?? 'report';
  if (onDrift !== 'report' && onDrift !== 'revert') throw new Error(`--on-drift must be report or revert (got ${onDrift})`);
  const intervalS = seconds(opts.interval, 60, '--interval');
  const heartbeatS = seconds(opts.heartbeat, 5, '--heartbeat', 0.1);
  const meshWaitS = Math.round(seconds(opts.meshWait, 30, '--mesh-wait', 1));
  const budget = opts.platformBudget === undefined ? undefined : Number(opts.platformBudget);
  if (budget !== undefined && !(budget > 0)) throw new Error(`--platform-budget must be a positive number of requests per second (got ${opts.platformBudget})`);
  const t = tuning(opts);
  if (process.env.CONVERGE_STATE_KEY) stateKey();

  // The app is read once now; with --synth-dir it is read again every whole cycle (a new synth is an app change).
  const first = loadStacks(opts);
  const all = opts.synthDir ? synthDirReader(path.resolve(opts.synthDir), first) : () => first;
  const watched = opts.stack?.length ? selectStacks(first, opts.stack, true) : first;
  if (!watched.length) throw new Error('the app has no stacks to watch');

  const backend = await openBackend();
  const shared = /^postgres(ql)?:\/\//.test(process.env.CONVERGE_STATE ?? '');
  const leases: StackLeases = shared
    ? new PostgresLeases(process.env.CONVERGE_STATE!, heartbeatS * 1000, stateTableOf(process.env.CONVERGE_STATE!), 'converge_watch', (m) => out.warn(m))
    : new SoleLeases();
  // One set of clients for every stack: the platform budget is shared by all of them.
  const clients = new ApiClients({ timeoutMs: t.timeoutMs, retries: t.retries, connections: Math.max(16, t.parallelism),
    rateLimits: budget ? { platform: budget } : undefined });
  // Blocking queries hold their connections open: they get clients of their own.
  const meshClients = new ApiClients({ timeoutMs: (meshWaitS + 15) * 1000, retries: 0, connections: 64 });
  const metrics = new WatchMetrics();
  const reporter = new WatchReporter(out, Boolean(opts.json), verbose);
  const watcher = new Watcher(all, watched, { intervalMs: intervalS * 1000, onDrift, applyAppChanges: Boolean(opts.applyAppChanges),
    parallelism: t.parallelism, meshWaitS }, backend, clients, meshClients, leases, metrics, reporter, out);

  let stop!: (signal: string) => void;
  const stopped = new Promise<string>((r) => { stop = r; });
  const onSignal = (s: NodeJS.Signals) => stop(s);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // A replica that holds no stack yet has no timer of its own running: the process waits for its signal.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    if (opts.metricsListen) {
      const at = await metrics.listen(opts.metricsListen, () => {
        const nobody = leases.unheld();
        if (nobody.length) return `held by no live replica: ${nobody.join(', ')}`;
        return watcher.ready() ? undefined : 'a held stack has not finished its first cycle';
      });
      reporter.emit({ event: 'metrics', listen: at, message: `metrics on http://${at}/metrics (health: /healthz, /readyz)` });
    }
    reporter.emit({ event: 'started', replica: leases.me, stacks: watched.map((s) => s.stack), interval: intervalS, onDrift,
      message: `watching ${watched.map((s) => s.stack).join(', ')} every ${intervalS} s (mesh entries as they change); on drift: ${onDrift}` +
        (opts.synthDir ? '' : '; the app was synthesized once: pass --synth-dir to see a new synth') });
    await watcher.start();
    const signal = await stopped;
    reporter.emit({ event: 'stopping', signal, message: `${signal}: finishing the cycles in flight` });
    await watcher.stop();
    reporter.emit({ event: 'stopped', message: 'stopped: every lock and lease released' });
    return 0;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    clearInterval(keepAlive);
    await metrics.close();
    await clients.close();
    await backend.close?.();
    // Blocking queries still open only read: they are dropped with the process.
    setImmediate(() => process.exit(process.exitCode ?? 0)).unref();
  }
}
