import { ApiClients } from '../core/engine/api-clients';
import { ProviderConfig } from '../core/model';
import { stateKey } from '../core/crypto/state-key';
import { lockWaiting } from '../core/state/lock-wait';
import { StateBackend } from '../core/state/state-model';
import { StateStore } from '../core/state/state-store';
import { Interrupts } from './interrupts';
import { Output } from './output';
import { openBackend } from './workspace';

/** Tunables read from global flags and the environment. */
export interface RunTuning {
  readonly parallelism: number;
  readonly timeoutMs?: number;
  readonly retries?: number;
  /** How long to wait for a lock another run holds (`--lock-timeout`); unset: see LockWait. */
  readonly lockTimeoutMs?: number;
}

/** Reads the run tuning (`--parallelism`, `--lock-timeout`, `CONVERGE_TIMEOUT_MS`, `CONVERGE_RETRIES`, `CONVERGE_LOCK_TIMEOUT`). */
export function tuning(opts: { parallelism?: string; lockTimeout?: string }): RunTuning {
  const parallelism = Number(opts.parallelism ?? process.env.CONVERGE_PARALLELISM ?? 10);
  if (!Number.isInteger(parallelism) || parallelism < 1) throw new Error(`--parallelism must be a positive integer (got ${opts.parallelism})`);
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const lockTimeout = opts.lockTimeout ?? process.env.CONVERGE_LOCK_TIMEOUT;
  return {
    parallelism, timeoutMs: num(process.env.CONVERGE_TIMEOUT_MS), retries: num(process.env.CONVERGE_RETRIES),
    ...(lockTimeout !== undefined ? { lockTimeoutMs: durationMs(lockTimeout, '--lock-timeout') } : {}),
  };
}

/** A duration as Terraform's flags take it (`0s`, `30s`, `5m`, `1m30s`, `500ms`, `1h`; a bare number is seconds), in milliseconds. */
export function durationMs(v: string, flag: string): number {
  const text = v.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== text) {
    throw new Error(`${flag} must be a duration such as 0s, 30s, 5m or 1m30s (got "${v}")`);
  }
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2]], 0));
}

/** How a locked run treats SIGINT and SIGTERM. */
export interface SessionOptions {
  /**
   * true (apply, destroy): `fn` is asked to stop through the interrupt's signal, and reports.
   * false: the lock is released and the process exits at once.
   * @default false
   */
  readonly graceful?: boolean;
  /**
   * The providers the run is about to call: their address checks are sent before the lock is taken
   * and the state read, so that the round trips overlap that work (they are checked once per run anyway).
   * @default none
   */
  readonly checkEarly?: readonly ProviderConfig[];
  /** Open a state whose records were changed outside converge (`state rm` forgets them). @default false */
  readonly tolerateTampered?: boolean;
  /** Opens a state that was never sealed, for `converge state migrate`. */
  readonly migrate?: boolean;
}

/**
 * Runs `fn` with a stack's state locked for the whole operation; the lock is released
 * however `fn` ends (a signal included), and the clients and backend are closed.
 */
export async function withLockedState<T>(stack: string, operation: string, t: RunTuning, out: Output,
  fn: (state: StateStore, clients: ApiClients, backend: StateBackend, interrupts: Interrupts) => Promise<T>,
  options: SessionOptions = {}): Promise<T> {
  // A key given is checked before anything else: a weak one is refused even where nothing needs it yet.
  if (process.env.CONVERGE_STATE_KEY) stateKey();
  const interrupts = new Interrupts(out, stack, options.graceful ?? false);
  try {
    const backend = await openBackend();
    const clients = new ApiClients({ timeoutMs: t.timeoutMs, retries: t.retries, connections: Math.max(16, t.parallelism) });
    // Sent now, awaited once the state is open: every API that cannot be used is named at once (ApiClients.verify).
    const early = options.checkEarly?.length ? clients.verify(options.checkEarly).then(() => undefined, (e: Error) => e) : undefined;
    try {
      // A watch cycle holding the stack is waited for (briefly, by default); see lockWaiting.
      const lock = await lockWaiting(backend, stack, operation, { timeoutMs: t.lockTimeoutMs, log: (m) => out.warn(m) });
      interrupts.holding(lock);
      try {
        const state = await StateStore.open(backend, stack, { tolerateTampered: options.tolerateTampered, migrate: options.migrate });
        const unusable = await early;
        if (unusable) throw unusable;
        return await fn(state, clients, backend, interrupts);
      } finally {
        interrupts.holding(undefined);
        await lock.release();
      }
    } finally {
      await clients.close();
      await backend.close?.();
    }
  } finally {
    interrupts.dispose();
  }
}
