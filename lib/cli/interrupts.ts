import { LockHandle } from '../core/state/state-model';
import { Output } from './output';

/** How long in-flight operations may take to finish after an interrupt (`CONVERGE_INTERRUPT_GRACE_MS`). */
export const DEFAULT_GRACE_MS = 30_000;

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type HandledSignal = keyof typeof EXIT_CODES;

/**
 * SIGINT and SIGTERM while a stack is locked. A graceful run (apply, destroy) is asked to stop
 * through `signal`: it starts nothing new, lets what is in flight finish, writes state and
 * reports; if that takes longer than the grace period the lock is released and the process
 * exits. Any other run (plan, refresh, state commands) releases the lock and exits at once. A
 * second signal exits at once (a local lock file is removed synchronously on the way out; a
 * PostgreSQL advisory lock ends with the connection).
 */
export class Interrupts {
  private readonly controller = new AbortController();
  private received?: HandledSignal;
  private lock?: LockHandle;
  private timer?: NodeJS.Timeout;
  private readonly handlers: [HandledSignal, () => void][];

  constructor(private readonly out: Output, private readonly stack: string, private readonly graceful: boolean,
    private readonly graceMs = Number(process.env.CONVERGE_INTERRUPT_GRACE_MS ?? DEFAULT_GRACE_MS)) {
    this.handlers = (Object.keys(EXIT_CODES) as HandledSignal[]).map((s) => [s, () => this.on(s)]);
    for (const [s, h] of this.handlers) process.on(s, h);
  }

  /** Aborted at the first signal of a graceful run. */
  public get signal(): AbortSignal { return this.controller.signal; }

  /** The signal received, if any. */
  public get by(): HandledSignal | undefined { return this.received; }

  /** 130 after SIGINT, 143 after SIGTERM. */
  public get exitCode(): number | undefined { return this.received ? EXIT_CODES[this.received] : undefined; }

  /** The lock to release when the process has to exit early. */
  public holding(lock: LockHandle | undefined): void {
    this.lock = lock;
  }

  public dispose(): void {
    for (const [s, h] of this.handlers) process.off(s, h);
    if (this.timer) clearTimeout(this.timer);
  }

  private on(s: HandledSignal): void {
    if (this.received) {
      this.out.warn(`converge: ${s} again: exiting at once; operations in flight are recovered by the next run`);
      this.exit(EXIT_CODES[this.received]);
      return;
    }
    this.received = s;
    if (!this.graceful || !this.lock) {
      this.out.warn(`converge: interrupted by ${s}${this.lock ? `; released the lock of stack ${this.stack}` : ''}`);
      this.exit(EXIT_CODES[s]);
      return;
    }
    this.out.warn(`converge: interrupted by ${s}: starting nothing new, waiting up to ${seconds(this.graceMs)} ` +
      'for the operations in flight, then writing state and releasing the lock (interrupt again to exit at once)');
    this.controller.abort();
    this.timer = setTimeout(() => {
      this.out.warn(`converge: operations still in flight after ${seconds(this.graceMs)}: exiting; ` +
        `released the lock of stack ${this.stack}; the next run finds what they did`);
      this.exit(EXIT_CODES[s]);
    }, this.graceMs);
  }

  /** Releases the lock (a local lock synchronously, a remote one as far as it gets) and exits. */
  private exit(code: number): void {
    const lock = this.lock;
    this.lock = undefined;
    const release = lock ? lock.release().catch(() => undefined) : Promise.resolve();
    // A remote release gets a moment; the server drops a session lock when the connection closes anyway.
    const bound = new Promise((r) => setTimeout(r, 2000).unref());
    void Promise.race([release, bound]).then(() => process.exit(code));
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
