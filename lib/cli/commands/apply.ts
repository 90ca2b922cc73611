import * as readline from 'readline';
import { DeclaredProviders } from '../../core/engine/declared-providers';
import { ApplyEvent, ApplyResult } from '../../core/engine/applier';
import { conflictsOf, hasChanges, StackPlan } from '../../core/engine/plan-model';
import { DesiredStack } from '../../core/model';
import { stateKey } from '../../core/crypto/state-key';
import { StateStore } from '../../core/state/state-store';
import { Interrupts } from '../interrupts';
import { Output } from '../output';
import { readSavedPlan } from '../plan-file';
import { emitApplyEvent, emitPlanned, emitSummary } from '../apply-events';
import { Progress } from '../progress';
import { renderPlan } from '../render-plan';
import { preflightOrFail } from '../preflight';
import { tuning, withLockedState } from '../session';
import { inDependencyOrder, loadStacks, selectStacks } from '../workspace';
import { OtherStacks, stacksReadBy } from '../../core/engine/other-stacks';
import { applyReconciled, planReconciled, ReconcileContext, readOtherStacks } from '../../core/engine/reconcile';
import { summariseRetained, withStackInImportHints } from '../import-hint';
import { PlanCommandOptions } from './plan';

export interface ApplyCommandOptions extends PlanCommandOptions {
  readonly autoApprove?: boolean;
  /** The plan is not printed (the Terraform bridge: Terraform's plan showed it, and its error would repeat it). */
  readonly planShownElsewhere?: boolean;
}

async function confirm(question: string, operation: 'apply' | 'destroy'): Promise<boolean> {
  if (!process.stdin.isTTY) {
    throw new Error(`${operation} needs confirmation: run it in a terminal, or pass --auto-approve (CI)`);
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  // Ctrl-C at the prompt (a keypress in the terminal's raw mode, not a signal) answers no.
  const answer = await new Promise<string>((r) => { rl.on('SIGINT', () => r('')); rl.question(question, r); });
  rl.close();
  return answer.trim() === 'yes';
}

/**
 * `converge apply [PLANFILE]` and `converge destroy`: plan (or take a saved plan), confirm,
 * converge, and summarise. A saved plan is refused when the state moved since it was made.
 */
export async function applyCommand(planFile: string | undefined, opts: ApplyCommandOptions, out: Output): Promise<number> {
  const t = tuning(opts);
  // The confirmation question would be written into the event stream.
  if (opts.json && !planFile && !opts.autoApprove) throw new Error(`${opts.destroy ? 'destroy' : 'apply'} --json needs --auto-approve (or a saved plan)`);
  const saved = planFile ? readSavedPlan(planFile).plans : undefined;
  // A saved plan keeps the order it was made in (a stack after the stacks it reads from).
  const all = saved ? saved.map((p) => p.desired) : loadStacks(opts);
  const stacks = saved ? all : inDependencyOrder(selectStacks(all, opts.stack, true), opts.destroy);
  const other = new OtherStacks();
  /** Stacks this run applied (their state moved on purpose), and those whose apply failed. */
  const applied = new Set<string>();
  const broken = new Set<string>();
  let failed = 0;
  for (const desired of stacks) {
    const operation = opts.destroy ? 'destroy' : 'apply';
    const savedPlan = saved?.find((p) => p.stack === desired.stack);
    const after = opts.destroy ? [] : stacksReadBy(desired).filter((s) => broken.has(s));
    if (after.length) {
      // Its references would resolve to what the failed stack left behind: not applied.
      out.error(`stack ${desired.stack} was not applied: it reads values from stack ${after.join(', ')}, whose apply failed`);
      broken.add(desired.stack);
      failed++;
      continue;
    }
    let interruptedWith: number | undefined;
    const code = await withLockedState(desired.stack, operation, t, out, async (state, clients, backend, interrupts) => {
      const ctx: ReconcileContext = { backend, clients, all, other, parallelism: t.parallelism, warn: (m) => out.warn(m) };
      return applyStack({ desired, saved: savedPlan, opts, out, state, ctx, interrupts, applied, several: all.length > 1 })
        .finally(() => { interruptedWith = interrupts.exitCode; });
    }, { graceful: true, checkEarly: !savedPlan && opts.refresh !== false && !opts.destroy ? Object.values(desired.resources).map((r) => r.provider) : undefined });
    // Stacks after an interrupted one are not started.
    if (interruptedWith !== undefined) return interruptedWith;
    // Its consumers later in this run read its state again: they see what this apply wrote.
    other.applied(desired.stack);
    applied.add(desired.stack);
    if (code) broken.add(desired.stack);
    failed += code;
  }
  return failed ? 1 : 0;
}

interface StackRun {
  readonly desired: DesiredStack;
  readonly saved?: StackPlan;
  readonly opts: ApplyCommandOptions;
  readonly out: Output;
  readonly state: StateStore;
  /** The run's reconcile context: clients, backend, the app's stacks and the states read of other stacks. */
  readonly ctx: ReconcileContext;
  readonly interrupts: Interrupts;
  /** Stacks applied earlier in this run. */
  readonly applied: ReadonlySet<string>;
  /** The app has several stacks (a command that names an address needs --stack). */
  readonly several: boolean;
}

/** Plans (or checks the saved plan), confirms and applies one stack; its exit status. */
async function applyStack({ desired, saved, opts, out, state, ctx, interrupts, applied, several }: StackRun): Promise<number> {
  const clients = ctx.clients;
  let plan: StackPlan;
  if (saved) {
    await readOtherStacks(desired, ctx, { destroy: opts.destroy });
    plan = saved;
    // A stack with no state yet gets a fresh random lineage each time it is opened: a plan made
    // against no state stays valid as long as there is still none (serial 0).
    const stillNoState = plan.serial === 0 && state.serial === 0;
    if (!stillNoState && (plan.lineage !== state.lineage || plan.serial !== state.serial)) {
      throw new Error(`the saved plan is stale: the state of stack ${plan.stack} has changed since the plan was made ` +
        `(serial ${plan.serial} -> ${state.serial}${plan.lineage !== state.lineage ? ', other lineage' : ''}); run converge plan again`);
    }
    assertProducersUnchanged(plan, ctx.other, applied);
  } else {
    plan = withStackInImportHints(await planReconciled(desired, state, ctx, { refresh: opts.refresh !== false, destroy: opts.destroy }), several);
  }
  if (!opts.planShownElsewhere || !hasChanges(plan)) renderPlan(plan, out, { compact: opts.compact });
  const conflicts = conflictsOf(plan);
  if (conflicts.length) {
    throw new Error(`${conflicts.length} object(s) exist on the API and are not managed by converge; nothing was applied:\n` +
      conflicts.map((c) => `  ${c.address}: ${c.reason}`).join('\n'));
  }
  const operation = opts.destroy ? 'destroy' : 'apply';
  if (opts.json) emitPlanned(plan, operation);
  if (!hasChanges(plan)) {
    if (opts.json) emitSummary(plan.stack, operation, undefined, clients.stats);
    return 0;
  }
  // Every API's address is proven before anything is written, an intent included (a saved plan was read, not planned).
  // Records only in state: through the app's provider (one it does not declare is refused by the apply, never contacted).
  const declared = new DeclaredProviders(plan.desired);
  const acting = plan.items.filter((i) => i.action !== 'noop')
    .map((i) => plan.desired.resources[i.address]?.provider ?? declared.resolve(state.record(i.address)?.provider));
  await clients.verify(acting.filter((p) => p !== undefined).map((p) => p!));
  await preflightOrFail(plan, state, clients, out, opts.preflight);
  if (!saved && !opts.autoApprove && !(await confirm(`\nDo you want to perform these actions in stack ${plan.stack}? Only 'yes' will be accepted: `, opts.destroy ? 'destroy' : 'apply'))) {
    out.result('Apply cancelled.');
    return 1;
  }
  // The first record written needs the state key: a key file created now says so before the progress
  // starts, not in the middle of its live block.
  stateKey();
  const progress = opts.json ? undefined : new Progress(out, plan.items.filter((i) => !['noop'].includes(i.action)).length);
  const onEvent = progress ? (e: ApplyEvent) => progress.event(e) : (e: ApplyEvent) => emitApplyEvent(plan.stack, e);
  const result = await applyReconciled(plan, state, ctx, undefined, { onEvent, signal: interrupts.signal });
  progress?.finish();
  if (opts.json) emitSummary(plan.stack, operation, result, clients.stats, interrupts.by);
  const verb = opts.destroy ? 'Destroy' : 'Apply';
  if (interrupts.by) summariseInterrupted(result, out, verb, interrupts.by, plan.stack);
  else summarise(result, clients.stats, out, verb);
  if (opts.destroy && !interrupts.by) summariseRetained(plan, result, several, out);
  return result.failed.length ? 1 : 0;
}

/**
 * A saved plan read values of other stacks: it is stale when one of their states moved since, unless
 * this run applied that stack just before (its consumers' plans showed what it changes as known after apply).
 */
function assertProducersUnchanged(plan: StackPlan, other: OtherStacks, applied: ReadonlySet<string>): void {
  const read = Object.keys(plan.otherStacks ?? {}).filter((s) => !applied.has(s));
  const now = other.snapshots(read);
  for (const s of read) {
    if (JSON.stringify(now[s]) !== JSON.stringify(plan.otherStacks![s])) {
      throw new Error(`the saved plan is stale: stack ${plan.stack} reads values from stack ${s}, whose state has changed since the plan was made; run converge plan again`);
    }
  }
}

function summarise(r: ApplyResult, stats: { requests: number; retries: number }, out: Output, verb: string): void {
  const c = out.c;
  const ok = r.failed.length === 0;
  out.result('');
  out.result((ok ? c.green : c.red)(`${verb} ${ok ? 'complete' : 'finished with errors'}: ${r.done.length} done, ${r.failed.length} failed, ` +
    `${r.skipped.length} skipped; ${stats.requests} requests, ${stats.retries} retries.`));
  for (const f of r.failed) out.result(c.red(`  failed  ${f.address} (${f.action}): ${f.error}`));
  for (const s of r.skipped) out.result(c.yellow(`  skipped ${s.address} (${s.action}): ${s.because}`));
}

/** After SIGINT or SIGTERM: what was done, what failed, and what was not started. */
function summariseInterrupted(r: ApplyResult, out: Output, verb: string, by: string, stack: string): void {
  const c = out.c;
  out.result('');
  out.result(c.yellow(`${verb} of stack ${stack} interrupted by ${by}: ${r.done.length} done, ${r.failed.length} failed, ` +
    `${r.skipped.length} not started. State holds what was done; the lock is released.`));
  for (const d of r.done) out.result(`  done        ${d.address} (${d.action})`);
  for (const f of r.failed) out.result(c.red(`  failed      ${f.address} (${f.action}): ${f.error}`));
  // Whether skipped for the interrupt or for a dependency that was itself not started: not started.
  for (const s of r.skipped) out.result(c.yellow(`  not started ${s.address} (${s.action})`));
  out.result(`Run converge ${verb === 'Destroy' ? 'destroy' : 'apply'} again to finish.`);
}
