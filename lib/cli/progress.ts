import { ApplyEvent } from '../core/engine/applier';
import { Output } from './output';

const PAST: Record<string, string> = {
  create: 'created', update: 'updated', replace: 'replaced', delete: 'destroyed', adopt: 'adopted', forget: 'forgotten', read: 'read',
};

/** Progress of an apply: one line per event (readable in CI logs as on a terminal). */
export class Progress {
  private finished = 0;

  constructor(private readonly out: Output, private readonly total: number) {}

  public event(e: ApplyEvent): void {
    const c = this.out.c;
    if (e.phase === 'start') {
      this.out.info(c.dim(`  ${e.address}: ${e.action}…`));
      return;
    }
    this.finished++;
    const n = `[${this.finished}/${this.total}]`;
    if (e.phase === 'done') this.out.info(`  ${c.green('✓')} ${n} ${e.address}: ${PAST[e.action] ?? e.action} (${e.ms} ms)`);
    else if (e.phase === 'failed') this.out.info(`  ${c.red('✗')} ${n} ${e.address}: ${e.action} failed: ${e.error}`);
    else this.out.info(`  ${c.yellow('-')} ${n} ${e.address}: skipped (${e.error})`);
  }

  public finish(): void {
    // Line-per-event output needs no cleanup; kept for a future live terminal view.
  }
}
