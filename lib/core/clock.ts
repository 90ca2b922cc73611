/**
 * Time as the HTTP client, its rate limiter and the emulators see it: what time it is and how to
 * wait. The system clock in use; a test passes a fake one and checks waits without measuring time.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves once `ms` have passed on this clock. */
  sleep(ms: number): Promise<void>;
}

/** Wall time and `setTimeout`. */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
