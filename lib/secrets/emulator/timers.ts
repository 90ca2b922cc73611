import { Clock, SYSTEM_CLOCK } from '../../core/clock';

/** The longest delay `setTimeout` takes (a longer one would fire at once). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * An engine's timers (lease expiries, scheduled rotations), by key, on the emulator's clock. On the
 * system clock they are `setTimeout`s that keep no process alive; on any other clock they wait with
 * its `sleep`, so a test's clock fires them when it moves past their time. `settled()` resolves
 * once the work of every timer fired so far (a revocation, say) has finished.
 */
export class Timers {
  private readonly pending = new Map<string, () => void>();
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly clock: Clock) {}

  /** Runs `fn` once `delayMs` have passed on the clock (at once when not positive), replacing the timer under `key`. */
  public set(key: string, delayMs: number, fn: () => unknown): void {
    this.clear(key);
    if (this.closed) return;
    let cancelled = false;
    const fire = (): void => {
      if (cancelled) return;
      this.pending.delete(key);
      const work = Promise.resolve().then(fn).catch(() => undefined);
      this.running.add(work);
      void work.finally(() => this.running.delete(work));
    };
    const ms = Math.max(0, delayMs);
    if (this.clock === SYSTEM_CLOCK) {
      const t = setTimeout(fire, Math.min(ms, MAX_TIMEOUT_MS));
      t.unref?.();
      this.pending.set(key, () => { cancelled = true; clearTimeout(t); });
    } else {
      this.pending.set(key, () => { cancelled = true; });
      void this.clock.sleep(ms).then(fire);
    }
  }

  public clear(key: string): void {
    this.pending.get(key)?.();
    this.pending.delete(key);
  }

  public clearAll(): void {
    for (const cancel of this.pending.values()) cancel();
    this.pending.clear();
  }

  /** Cancels every timer; later ones are not set. */
  public close(): void {
    this.closed = true;
    this.clearAll();
  }

  /** Resolves once the work of the timers fired so far (and of the ones that work sets and that fire meanwhile) has finished. */
  public async settled(): Promise<void> {
    // A sleep that just ended runs its timer in a promise reaction: let those run first.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.running.size) await Promise.all([...this.running]);
  }
}
