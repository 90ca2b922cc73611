import { ApplyEvent, ApplyResult } from '../core/engine/applier';
import { StackPlan } from '../core/engine/plan-model';

/**
 * `apply --json` and `destroy --json`: one JSON document per line on stdout, as the apply goes
 * (docs/apply-json.md). Each names the stack; none carries a value of an object, so none can carry a
 * secret (an error is the API's message, which converge redacts as it does on a terminal).
 */
export const APPLY_EVENTS_VERSION = 1;

function emit(event: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify({ format_version: APPLY_EVENTS_VERSION, ...event }) + '\n');
}

/** What the stack's plan will do: counts per action (noops left out). */
export function emitPlanned(plan: StackPlan, operation: 'apply' | 'destroy'): void {
  const changes: Record<string, number> = {};
  for (const i of plan.items) if (i.action !== 'noop') changes[i.action] = (changes[i.action] ?? 0) + 1;
  emit({ type: 'planned', stack: plan.stack, operation, changes });
}

/** One object's operation: started, done, failed, skipped, or a note after it. */
export function emitApplyEvent(stack: string, e: ApplyEvent): void {
  emit({
    type: e.phase, stack, address: e.address, action: e.action,
    ...(e.ms !== undefined ? { ms: e.ms } : {}),
    ...(e.note !== undefined ? { note: e.note } : {}),
    ...(e.error !== undefined ? { [e.phase === 'skipped' ? 'reason' : 'error']: e.error } : {}),
  });
}

/** The stack's end: what was done, failed and skipped, and the requests it took. */
export function emitSummary(stack: string, operation: 'apply' | 'destroy', r: ApplyResult | undefined,
  stats: { requests: number; retries: number }, interruptedBy?: string): void {
  emit({
    type: 'summary', stack, operation,
    done: r?.done.length ?? 0, failed: r?.failed.length ?? 0, skipped: r?.skipped.length ?? 0,
    requests: stats.requests, retries: stats.retries,
    ...(interruptedBy ? { interrupted_by: interruptedBy } : {}),
  });
}

/** A run that stopped on an error (before or between stacks). */
export function emitError(message: string): void {
  emit({ type: 'error', message });
}
