/**
 * Blocking queries: a request with `?index=N` (N at least the current index) waits until an
 * entry it depends on changes or `wait` (default 5m, at most 10m) elapses.
 */

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

  /** Resolves when a relevant change happens or after `ms`. */
  public wait(ms: number, relevant: (c: Change) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const w: Waiter = {
        relevant,
        wake: () => { clearTimeout(timer); this.waiters.delete(w); resolve(); },
      };
      const timer = setTimeout(w.wake, ms);
      this.waiters.add(w);
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
