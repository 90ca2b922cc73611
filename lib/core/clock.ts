/**
 * Time as the HTTP client, its rate limiter and the emulators see it: what time it is and how to
 * wait. The system clock in use; a test passes a fake one and checks waits without measuring time.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Resolves once `ms` have passed on this clock, or as soon as `signal` aborts (the wait is called
   * off: its timer is dropped).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Wall time and `setTimeout`. */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => new Promise((resolve) => {
    if (!signal) {
      setTimeout(resolve, ms);
      return;
    }
    if (signal.aborted) {
      resolve();
      return;
    }
    const end = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', end);
      resolve();
    };
    const timer = setTimeout(end, ms);
    signal.addEventListener('abort', end, { once: true });
  }),
};
