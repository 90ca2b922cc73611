/**
 * Blocking queries: a request with `?index=N` (N at least the current index) waits until an
 * entry it depends on changes or `wait` (default 5m, at most 10m) elapses on the emulator's clock.
 */
import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { EmuRequest } from '../../core/emulator-kit/types';
import { parseGoDuration } from '../compiler/duration';

export const DEFAULT_WAIT_MS = 5 * 60_000;
export const MAX_WAIT_MS = 10 * 60_000;

/** What changed: an entry's kind, namespace and name. */
export interface Change { kind: string; namespace: string; name: string }

interface Waiter {
  relevant(c: Change): boolean;
  wake(): void;
}

export class Watchers {
  private readonly waiters = new Set<Waiter>();

  /** @param clock what the waits go by (tests pass one they move). */
  constructor(private readonly clock: Clock = SYSTEM_CLOCK) {}

  /** Resolves when a relevant change happens or after `ms` on the clock (whichever first). */
  public wait(ms: number, relevant: (c: Change) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const woken = new AbortController();
      const w: Waiter = {
        relevant,
        // Calls off the clock's wait (its timer is dropped) and answers now.
        wake: () => { this.waiters.delete(w); woken.abort(); resolve(); },
      };
      this.waiters.add(w);
      void this.clock.sleep(ms, woken.signal).then(w.wake);
    });
  }

  public notify(c: Change): void {
    for (const w of [...this.waiters]) if (w.relevant(c)) w.wake();
  }

  /** Answers every waiting query now (the emulator is stopping). */
  public wakeAll(): void {
    for (const w of [...this.waiters]) w.wake();
  }
}

/** Parses `index` and `wait` of a blocking query. */
export function blockingOf(req: EmuRequest): { index: number; waitMs: number } | { error: string } {
  const rawIndex = req.query.get('index');
  const rawWait = req.query.get('wait');
  let index = 0;
  if (rawIndex !== null && rawIndex !== '') {
    if (!/^\d+$/.test(rawIndex)) return { error: 'Invalid index' };
    index = Number(rawIndex);
  }
  let waitMs = DEFAULT_WAIT_MS;
  if (rawWait !== null && rawWait !== '') {
    try {
      waitMs = /^\d+$/.test(rawWait) ? Number(rawWait) * 1000 : parseGoDuration(rawWait) / 1e6;
    } catch {
      return { error: 'Invalid wait time' };
    }
  }
  return { index, waitMs: Math.min(Math.max(0, waitMs), MAX_WAIT_MS) };
}
