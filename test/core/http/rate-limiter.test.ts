import { RateLimiter } from '../../../lib/core/http/rate-limiter';
import { FakeClock } from '../../support/fake-clock';

// The limiter on a fake clock: when each request is let through is read off the clock, not timed.
describe('rate limiter', () => {
  /** Acquires `n` times in a row; the clock time (ms from the start) at which each one was let through. */
  async function admitted(limiter: RateLimiter, clock: FakeClock, n: number): Promise<number[]> {
    const start = clock.now();
    const times: number[] = [];
    await Promise.all(Array.from({ length: n }, () => limiter.acquire().then(() => times.push(clock.now() - start))));
    return times;
  }

  test('a full bucket lets a burst of `perSecond` through, then one request every 1/perSecond s', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(4, clock);
    expect(await admitted(limiter, clock, 7)).toEqual([0, 0, 0, 0, 250, 500, 750]);
  });

  test('the bucket refills while no request is made, up to `perSecond`', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(2, clock);
    expect(await admitted(limiter, clock, 2)).toEqual([0, 0]);
    clock.advance(500);
    expect(await admitted(limiter, clock, 2)).toEqual([0, 500]);
    clock.advance(60_000);
    expect(await admitted(limiter, clock, 3)).toEqual([0, 0, 500]);
  });

  test('0 and Infinity are unlimited: no request waits', async () => {
    for (const perSecond of [0, Infinity]) {
      const clock = new FakeClock();
      expect(await admitted(new RateLimiter(perSecond, clock), clock, 100)).toEqual(Array(100).fill(0));
      expect(clock.sleeps).toEqual([]);
    }
  });

  test('a pause (a 429) stops every request until it ends, unlimited or not; a shorter pause does not shorten it', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(0, clock);
    limiter.pause(1500);
    limiter.pause(200);
    expect(await admitted(limiter, clock, 3)).toEqual([1500, 1500, 1500]);
    expect(clock.sleeps).toEqual([1500]);
    expect(await admitted(limiter, clock, 1)).toEqual([0]);
  });

  test('adopts a lower server-published limit, never a higher one; an unlimited client adopts any', async () => {
    const clock = new FakeClock();
    const limited = new RateLimiter(10, clock);
    limited.adopt(20);
    expect(await admitted(limited, clock, 11)).toEqual([...Array(10).fill(0), 100]);
    const slower = new RateLimiter(10, clock);
    slower.adopt(5);
    // The bucket is capped at the new rate at once: a burst of 5, then one every 200 ms.
    expect(await admitted(slower, clock, 8)).toEqual([0, 0, 0, 0, 0, 200, 400, 600]);
    const unlimited = new RateLimiter(0, clock);
    unlimited.adopt(2);
    expect(await admitted(unlimited, clock, 3)).toEqual([500, 1000, 1500]);
  });

  test('requests are let through in the order they asked', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1, clock);
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((i) => limiter.acquire().then(() => order.push(i))));
    expect(order).toEqual([1, 2, 3, 4]);
    expect(clock.sleeps).toEqual([1000, 1000, 1000]);
  });
});
