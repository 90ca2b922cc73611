import { Clock, SYSTEM_CLOCK } from '../clock';

const NOTHING_TO_WAIT: Promise<void> = Promise.resolve();

/**
 * A token bucket shared by every request to one API, plus an API-wide pause that a 429
 * sets: when the server says "slow down", the whole API backs off, not one request.
 */
export class RateLimiter {
  private tokens: number;
  private last: number;
  private pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  /**
   * @param perSecond requests per second; 0 or Infinity means unlimited.
   * @param clock what time it is and how to wait (tests pass a fake one).
   */
  constructor(private perSecond: number, private readonly clock: Clock = SYSTEM_CLOCK) {
    this.tokens = Number.isFinite(perSecond) && perSecond > 0 ? perSecond : 0;
    this.last = clock.now();
  }

  /** Adopts a server-published limit (e.g. `X-RateLimit-Limit`) when lower than ours. */
  public adopt(perSecond: number): void {
    if (perSecond > 0 && (!this.limited || perSecond < this.perSecond)) this.perSecond = perSecond;
  }

  /** Stops every request to this API until `ms` from now. */
  public pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  public acquire(): Promise<void> {
    // Nothing to wait for and nobody waiting: no queue to join (one request per object of a large plan).
    if (this.waiting === 0 && !this.limited && this.clock.now() >= this.pausedUntil) return NOTHING_TO_WAIT;
    this.waiting++;
    const next = this.queue.then(() => this.take());
    this.queue = next.then(() => { this.waiting--; }, () => { this.waiting--; });
    return next;
  }

  /** Acquisitions queued and not yet through. */
  private waiting = 0;

  private get limited(): boolean {
    return Number.isFinite(this.perSecond) && this.perSecond > 0;
  }

  private async take(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      if (now < this.pausedUntil) { await this.clock.sleep(this.pausedUntil - now); continue; }
      if (!this.limited) return;
      this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
      this.last = now;
      if (this.tokens >= 1) { this.tokens -= 1; return; }
      await this.clock.sleep(((1 - this.tokens) / this.perSecond) * 1000);
    }
  }
}
