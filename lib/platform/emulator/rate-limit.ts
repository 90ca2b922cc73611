/**
 * The platform's rate limit: a number of requests per second per user (every token of a user
 * shares it), in fixed one-second windows. `X-RateLimit-Reset` tells the seconds (fractional)
 * until the caller's window starts again.
 */
export class UserRateLimit {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** @param limit requests per second; 0 disables enforcement (headers are still sent). */
  constructor(public readonly limit: number) {}

  /** Counts one request of `user`; returns whether it is allowed and the reset in seconds. */
  public take(user: string | undefined, now = Date.now()): { allowed: boolean; resetSeconds: number } {
    if (user === undefined) return { allowed: true, resetSeconds: 0 };
    let w = this.windows.get(user);
    if (!w || now - w.start >= 1000) {
      w = { start: now, count: 0 };
      this.windows.set(user, w);
    }
    w.count += 1;
    const resetSeconds = Math.max(0, (w.start + 1000 - now) / 1000);
    return { allowed: this.limit <= 0 || w.count <= this.limit, resetSeconds };
  }
}
