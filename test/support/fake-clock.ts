import { Clock } from '../../lib/core/clock';

/**
 * A clock that never waits: each `sleep` moves its time forward at once and is recorded, so a
 * test asserts how long something waited, and when (on this clock) each step happened. Like the
 * system clock it tells whole milliseconds and a sleep lasts at least one (as `setTimeout`).
 */
export class FakeClock implements Clock {
  /** Every wait asked for, in order. */
  public readonly sleeps: number[] = [];

  constructor(private time = 1_700_000_000_000) {}

  public now(): number {
    return this.time;
  }

  public sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.time += Math.max(1, Math.trunc(ms));
    return Promise.resolve();
  }

  /** Moves time forward without a sleep (time passing between two calls). */
  public advance(ms: number): void {
    this.time += ms;
  }
}

/**
 * A clock whose time moves only when the test says: each `sleep` stays pending until `fireNext`
 * moves time to its end. A test that fires the next sleep only once every request sent so far has
 * arrived makes the server see each request at the time the client let it go.
 */
export class ManualClock implements Clock {
  private readonly timers: { at: number; resolve: () => void }[] = [];

  constructor(private time = 1_700_000_000_000) {}

  public now(): number {
    return this.time;
  }

  /** Pending until time reaches its end, or until `signal` aborts (the sleep is then no longer waiting). */
  public sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = { at: this.time + Math.max(1, Math.trunc(ms)), resolve };
      this.timers.push(timer);
      this.timers.sort((a, b) => a.at - b.at);
      signal?.addEventListener('abort', () => {
        const i = this.timers.indexOf(timer);
        if (i >= 0) this.timers.splice(i, 1);
        resolve();
      }, { once: true });
    });
  }

  /** Sleeps not yet over. */
  public get waiting(): number {
    return this.timers.length;
  }

  /**
   * Moves time forward by `ms` and ends every sleep over by then (the timers of an emulator that
   * waits on this clock fire: a lease expires). Sleeps those start are not ended by this call.
   */
  public advance(ms: number): void {
    this.time += ms;
    while (this.timers.length && this.timers[0].at <= this.time) this.timers.shift()!.resolve();
  }

  /** Moves time to the end of the earliest pending sleep and ends it (with any other ending then). */
  public fireNext(): void {
    const first = this.timers.shift();
    if (!first) return;
    this.time = Math.max(this.time, first.at);
    first.resolve();
    while (this.timers.length && this.timers[0].at <= this.time) this.timers.shift()!.resolve();
  }

  /**
   * Runs `work` to its end, firing the next sleep whenever `idle()` says nothing is in flight.
   * Polls by event-loop turns (`setImmediate`), never by time.
   */
  public async drive<T>(work: Promise<T>, idle: () => boolean): Promise<T> {
    let done = false;
    const watched = work.finally(() => { done = true; });
    while (!done) {
      await new Promise((r) => setImmediate(r));
      if (!done && this.waiting && idle()) this.fireNext();
    }
    return watched;
  }
}
