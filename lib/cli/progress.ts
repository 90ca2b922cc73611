import { ApplyEvent } from '../core/engine/applier';
import { Output } from './output';

const PAST: Record<string, string> = {
  create: 'created', update: 'updated', replace: 'replaced', delete: 'destroyed', adopt: 'adopted', forget: 'forgotten', read: 'read',
};

/** Operations shown in the live block at most; the rest are counted. */
const MAX_RUNNING_LINES = 8;
/** The live block is redrawn at most this often: thousands of operations must not mean thousands of redraws. */
const REDRAW_EVERY_MS = 100;

/** Whether the live view fits: a terminal on stdout, output not quieted, and not in CI (whose logs keep every byte). */
export function liveViewWanted(out: Output, stream: { isTTY?: boolean } = process.stdout): boolean {
  if (out.options.quiet || out.options.json) return false;
  if (process.env.CI && process.env.CI !== 'false') return false;
  if (process.env.TERM === 'dumb') return false;
  return Boolean(stream.isTTY);
}

/**
 * Progress of an apply. On a terminal: a live block at the bottom (one line per running
 * operation with its elapsed time, and a counter), redrawn in place, while each finished
 * operation is printed above it once. Elsewhere (CI, a pipe, a file): one line per event.
 */
export class Progress {
  private finished = 0;
  private readonly live: boolean;
  private readonly running = new Map<string, { action: string; since: number }>();
  private drawn = 0;
  private timer?: NodeJS.Timeout;
  /** Finished lines not yet printed, and when the block was last drawn (the live view only). */
  private pending: string[] = [];
  private drawnAt = 0;
  private flushTimer?: NodeJS.Timeout;

  constructor(private readonly out: Output, private readonly total: number, live = liveViewWanted(out)) {
    this.live = live;
    if (this.live) {
      this.timer = setInterval(() => this.redraw(), 1000);
      this.timer.unref();
    }
  }

  public event(e: ApplyEvent): void {
    const c = this.out.c;
    if (e.phase === 'start') {
      if (this.live) {
        this.running.set(e.address, { action: e.action, since: Date.now() });
        this.soon();
      } else {
        this.out.info(c.dim(`  ${e.address}: ${e.action}…`));
      }
      return;
    }
    if (e.phase === 'note') {
      // Not an operation of its own: not counted.
      const line = `  ${e.error ? c.red('✗') : c.green('✓')} ${e.address}: ${e.note}`;
      if (this.live) { this.pending.push(line); this.soon(); } else this.out.info(line);
      return;
    }
    this.finished++;
    this.running.delete(e.address);
    const n = `[${this.finished}/${this.total}]`;
    let line: string;
    if (e.phase === 'done') line = `  ${c.green('✓')} ${n} ${e.address}: ${PAST[e.action] ?? e.action}${e.note ? ` (${e.note})` : ''} (${e.ms} ms)`;
    else if (e.phase === 'failed') line = `  ${c.red('✗')} ${n} ${e.address}: ${e.action} failed: ${e.error}`;
    else line = `  ${c.yellow('-')} ${n} ${e.address}: skipped (${e.error})`;
    if (!this.live) {
      this.out.info(line);
      return;
    }
    this.pending.push(line);
    this.soon();
  }

  /** Prints the finished lines and redraws the block now if the last draw is old enough, else in a moment. */
  private soon(): void {
    if (this.flushTimer) return;
    const wait = this.drawnAt + REDRAW_EVERY_MS - Date.now();
    if (wait <= 0) {
      this.redraw();
      return;
    }
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.redraw();
    }, wait);
  }

  /** Removes the live block (the finished lines stay). */
  public finish(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.timer = this.flushTimer = undefined;
    if (this.live) {
      this.erase();
      this.printPending();
    }
  }

  private redraw(): void {
    this.erase();
    this.printPending();
    this.draw();
    this.drawnAt = Date.now();
  }

  private printPending(): void {
    if (this.pending.length) process.stdout.write(`${this.pending.join('\n')}\n`);
    this.pending = [];
  }

  private erase(): void {
    // Cursor up over the block, then clear to the end of the screen.
    if (this.drawn > 0) process.stdout.write(`\x1b[${this.drawn}A\x1b[J`);
    this.drawn = 0;
  }

  private draw(): void {
    const c = this.out.c;
    const width = Math.max(40, process.stdout.columns ?? 80);
    const lines: string[] = [];
    const now = Date.now();
    const all = [...this.running.entries()];
    for (const [address, r] of all.slice(0, MAX_RUNNING_LINES)) {
      lines.push(clip(`  ${c.cyan('…')} ${address}: ${r.action} (${((now - r.since) / 1000).toFixed(0)}s)`, width));
    }
    if (all.length > MAX_RUNNING_LINES) lines.push(c.dim(`  … and ${all.length - MAX_RUNNING_LINES} more running`));
    if (this.finished < this.total) lines.push(c.bold(`  ${this.finished}/${this.total} done, ${all.length} running`));
    if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
    this.drawn = lines.length;
  }
}

/** Keeps a line within the terminal width, so that a wrapped line cannot break the cursor arithmetic. */
function clip(line: string, width: number): string {
  // eslint-disable-next-line no-control-regex
  const visible = line.replace(/\x1b\[[0-9;]*m/g, '');
  return visible.length < width ? line : `${visible.slice(0, width - 2)}…`;
}
