import { LockedError, LockHandle, StateBackend } from './state-model';

/** How long a run waits, by default, for a `converge watch` cycle that holds the stack's lock. */
export const DEFAULT_WATCH_LOCK_WAIT_MS = 60_000;

/** How a run meets a lock another run holds. */
export interface LockWait {
  /**
   * Wait up to this long for any holder (`--lock-timeout`); 0: fail at once. Unset: wait up to
   * DEFAULT_WATCH_LOCK_WAIT_MS for a watch cycle only (it holds the lock for one plan and its writes),
   * and fail at once for any other holder (a person's apply may hold it for long).
   * @default undefined
   */
  readonly timeoutMs?: number;
  /** Told once when the run starts waiting, and of stale locks taken over. */
  readonly log?: (m: string) => void;
}

/**
 * Takes the stack's lock, waiting while another run holds it as `wait` allows: tries again with a
 * growing pause (0.1 s to 1 s, so that a lock released is taken soon without hammering the backend).
 * Once the wait is over, the holder's LockedError is thrown, saying how long it waited.
 */
export async function lockWaiting(backend: StateBackend, stack: string, operation: string, wait: LockWait = {}): Promise<LockHandle> {
  const started = Date.now();
  let pause = 100;
  let told = false;
  for (;;) {
    try {
      return await backend.lock(stack, operation, wait.log);
    } catch (e) {
      if (!(e instanceof LockedError)) throw e;
      const limit = wait.timeoutMs ?? (e.holder.operation === 'watch' ? DEFAULT_WATCH_LOCK_WAIT_MS : 0);
      const waited = Date.now() - started;
      if (waited + pause > limit) {
        if (limit > 0) e.message = `${e.message} (waited ${Math.round(waited / 1000)} s; --lock-timeout to wait longer)`;
        throw e;
      }
      if (!told) {
        told = true;
        wait.log?.(`converge: stack "${stack}" is locked by ${e.holder.who} (${e.holder.operation} since ${e.holder.since}); ` +
          `waiting for it, up to ${formatSeconds(limit)}${wait.timeoutMs === undefined ? ' (a watch cycle; --lock-timeout sets how long)' : ''}`);
      }
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(1000, pause * 2);
    }
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
