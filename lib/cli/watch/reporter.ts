import { Output } from '../output';

/** One thing the watcher tells: a line of text, or with `--json` one JSON object per line. */
export interface WatchEvent {
  /** `started`, `drift`, `drift-resolved`, `reverted`, `revert-failed`, `app-changed`, `renewal-due`, `renewed`,
   * `conflict`, `locked`, `cycle`, `lease-gained`, `lease-lost`, `error`, `stopped`. */
  readonly event: string;
  readonly stack?: string;
  readonly address?: string;
  readonly kind?: string;
  /** The one-line text form. */
  readonly message: string;
  /** Further fields of the JSON form (never a secret: changes carry masked values). */
  readonly [key: string]: unknown;
}

/** Writes events to stdout: text lines (a timestamp, the stack, the message) or JSON lines. */
export class WatchReporter {
  constructor(private readonly out: Output, private readonly json: boolean, private readonly verbose: boolean) {}

  public emit(e: WatchEvent): void {
    const time = new Date().toISOString();
    if (this.json) {
      process.stdout.write(JSON.stringify({ time, ...e }) + '\n');
      return;
    }
    // Cycle summaries are for --json readers and --log-level debug; drift and decisions always print.
    if (e.event === 'cycle' && !this.verbose) return;
    // Said already on the line of the write that resolved it: each revert prints once.
    if (e.event === 'drift-resolved' && e.byWrite) return;
    const c = this.out.c;
    const colour = e.event === 'drift' || e.event === 'revert-failed' || e.event === 'error' || e.event === 'conflict' ? c.red
      : e.event === 'app-changed' || e.event === 'locked' || e.event === 'renewal-due' ? c.yellow
        : e.event === 'reverted' || e.event === 'drift-resolved' || e.event === 'renewed' ? c.green : (s: string) => s;
    this.out.result(`${time} ${e.stack ? `[${e.stack}] ` : ''}${colour(e.message)}`);
  }
}
