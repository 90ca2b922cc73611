/** Checks that dependencies form no cycle; throws naming one. */
export function assertAcyclic(deps: Map<string, readonly string[]>): void {
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string): void => {
    const s = state.get(n);
    if (s === 2) return;
    if (s === 1) {
      const cycle = stack.slice(stack.indexOf(n)).concat(n);
      throw new Error(`dependency cycle: ${cycle.join(' -> ')}`);
    }
    state.set(n, 1);
    stack.push(n);
    for (const d of deps.get(n) ?? []) if (deps.has(d)) visit(d);
    stack.pop();
    state.set(n, 2);
  };
  for (const n of deps.keys()) visit(n);
}

/**
 * Runs async tasks with at most `limit` at once. A finished task hands its slot directly to the
 * first waiter, so a newcomer arriving before that waiter resumes cannot take the slot too.
 */
export class Semaphore {
  private active = 0;
  // A queue with a head index: Array.shift() copies the array, quadratic with 100 000 waiters.
  private waiting: (() => void)[] = [];
  private head = 0;
  constructor(private readonly limit: number) {}

  /** Tasks running now (for tests and diagnostics). */
  public get running(): number { return this.active; }

  public async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((r) => this.waiting.push(r)); // woken holding the slot of the task that finished
    try {
      return await fn();
    } finally {
      const next = this.waiting[this.head];
      if (next) {
        this.waiting[this.head++] = undefined as unknown as () => void;
        if (this.head > 1024 && this.head * 2 > this.waiting.length) {
          this.waiting = this.waiting.slice(this.head);
          this.head = 0;
        }
        next();
      } else {
        this.active--;
      }
    }
  }
}

/**
 * One semaphore per API: `parallelism` operations in flight against each API, so that one
 * slowed by its rate limit (the platform's 30 requests per second) does not hold the others up.
 */
export class ApiSemaphores {
  private readonly byApi = new Map<string, Semaphore>();
  constructor(private readonly parallelism: number) {}

  public for(api: string): Semaphore {
    let s = this.byApi.get(api);
    if (!s) { s = new Semaphore(this.parallelism); this.byApi.set(api, s); }
    return s;
  }
}
