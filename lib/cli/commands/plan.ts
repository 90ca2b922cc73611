import * as fs from 'fs';
import { conflictsOf, hasChanges, StackPlan } from '../../core/engine/plan-model';
import { Output } from '../output';
import { writeSavedPlan } from '../plan-file';
import { planJson, renderPlan } from '../render-plan';
import { renderSummary } from '../render-summary';
import { preflightOrFail } from '../preflight';
import { tuning, withLockedState } from '../session';
import { withStackInImportHints } from '../import-hint';
import { AppOptions, inDependencyOrder, loadStacks, selectStacks } from '../workspace';
import { OtherStacks } from '../../core/engine/other-stacks';
import { planReconciled } from '../../core/engine/reconcile';

export interface PlanCommandOptions extends Omit<AppOptions, 'stack'> {
  /** One stack, or several (each a name or a pattern with `*`). */
  readonly stack?: string | readonly string[];
  readonly parallelism?: string;
  /** `--lock-timeout`: how long to wait for a lock another run holds (a duration). */
  readonly lockTimeout?: string;
  readonly out?: string;
  readonly json?: boolean;
  readonly detailedExitcode?: boolean;
  readonly refresh?: boolean;
  readonly destroy?: boolean;
  readonly summary?: string;
  readonly compact?: boolean;
  /** false (--no-preflight): do not ask the APIs beforehand what the tokens may do. */
  readonly preflight?: boolean;
}

/**
 * Plans every selected stack, a stack after the stacks it reads values from (for a destroy, before):
 * what a producer's plan changes is "known after apply" in its consumers' plans.
 */
export async function makePlans(opts: PlanCommandOptions, out: Output, operation = 'plan'): Promise<StackPlan[]> {
  const all = loadStacks(opts);
  const stacks = inDependencyOrder(selectStacks(all, opts.stack, true), opts.destroy);
  const t = tuning(opts);
  const other = new OtherStacks();
  const destroyed = new Set<string>();
  const plans: StackPlan[] = [];
  for (const desired of stacks) {
    const plan = await withLockedState(desired.stack, operation, t, out, async (state, clients, backend) => {
      const ctx = { backend, clients, all, other, parallelism: t.parallelism, warn: (m: string) => out.warn(m) };
      const p = await planReconciled(desired, state, ctx, { refresh: opts.refresh !== false, destroy: opts.destroy, destroyedInRun: destroyed, plannedInRun: plans });
      await preflightOrFail(p, state, clients, out, opts.preflight);
      return withStackInImportHints(p, all.length > 1);
    }, { checkEarly: opts.refresh !== false && !opts.destroy ? Object.values(desired.resources).map((r) => r.provider) : undefined });
    other.planned(plan);
    destroyed.add(desired.stack);
    plans.push(plan);
  }
  return plans;
}

/** `converge plan`: exit 0 (no changes), 2 (changes, with --detailed-exitcode) or 1 (error). */
export async function planCommand(opts: PlanCommandOptions, out: Output): Promise<number> {
  const plans = await makePlans(opts, out);
  if (opts.json) out.json(planJson(plans));
  else plans.forEach((p) => renderPlan(p, out, { compact: opts.compact }));
  if (opts.summary) fs.writeFileSync(opts.summary, renderSummary(plans) + (opts.destroy ? '' : await trafficSummary(plans, opts, out)));
  const conflicts = plans.flatMap(conflictsOf);
  if (conflicts.length) {
    // Objects that exist under a construct's identity and are not converge's: nothing is saved or applied.
    out.error(`${conflicts.length} object(s) exist on the API and are not managed by converge; the plan cannot be applied:\n` +
      conflicts.map((c) => `  ${c.address}: ${c.reason}`).join('\n'));
    return 1;
  }
  if (opts.out) {
    writeSavedPlan(opts.out, plans);
    out.info(`Saved the plan to ${opts.out}. Apply exactly this plan with: converge apply ${opts.out}`);
  }
  return opts.detailedExitcode && plans.some(hasChanges) ? 2 : 0;
}

/**
 * The traffic picture for `--summary` (issue 34): the planned stacks with configuration entries are
 * planned again, read-only, to compile their chains. A picture that cannot be made is left out with a warning.
 */
async function trafficSummary(plans: StackPlan[], opts: PlanCommandOptions, out: Output): Promise<string> {
  const stacks = plans.map((p) => p.desired);
  // The mesh's chain compiler and traffic diff, loaded only for --summary (a plan loads only the APIs it names).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { trafficSummarySection } = require('../graph/traffic-summary') as typeof import('../graph/traffic-summary');
  const { planTraffic } = require('../graph/plan-traffic') as typeof import('../graph/plan-traffic');
  /* eslint-enable @typescript-eslint/no-require-imports */
  try {
    return trafficSummarySection(await planTraffic(stacks, stacks, opts, out));
  } catch (e) {
    out.warn(`the summary has no traffic picture: ${(e as Error).message}`);
    return '';
  }
}
