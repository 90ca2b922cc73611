/**
 * The platform's rate limit: `limit` requests per second per user (every token of a user shares
 * it), as a token bucket that holds up to `limit` requests and refills continuously.
 * `X-RateLimit-Reset` is the seconds (fractional) until the bucket is full again, or, when a
 * request is refused, until the next request is allowed.
 */
export class UserRateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /** @param limit requests per second; 0 disables enforcement (headers are still sent). */
  constructor(public readonly limit: number) {}

  /** Counts one request of `user` at `now` (ms); returns whether it is allowed and the reset in seconds. */
  public take(user: string | undefined, now: number): { allowed: boolean; resetSeconds: number } {
    if (user === undefined || this.limit <= 0) return { allowed: true, resetSeconds: 0 };
    const b = this.buckets.get(user) ?? { tokens: this.limit, at: now };
    b.tokens = Math.min(this.limit, b.tokens + ((now - b.at) / 1000) * this.limit);
    b.at = now;
    this.buckets.set(user, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { allowed: true, resetSeconds: (this.limit - b.tokens) / this.limit };
    }
    return { allowed: false, resetSeconds: (1 - b.tokens) / this.limit };
  }
}
