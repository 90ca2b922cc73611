import { DesiredStack } from '../../model';
import { StateBackend } from '../../state/state-model';
import { StateStore } from '../../state/state-store';
import { ApiClients } from '../api-clients';
import { applyPlan, ApplyOptions, ApplyResult } from '../applier';
import { OtherStacks } from '../other-stacks';
import { PlanItem, StackPlan } from '../plan-model';
import { PlanMemo } from '../plan-memo';
import { planStack } from '../planner';
import { prepareOtherStacks, readByOtherStacks } from './other-stack-reads';
import { assertIdentitiesFree } from './ownership-check';
import { restrictPlan } from './restrict';

/**
 * The one reconcile path that `plan`, `apply`, `destroy`, `watch` and the Terraform bridge share:
 * the stacks are taken in dependency order (`inDependencyOrder`), each planned with the values it
 * reads of other stacks and refused when one of its objects is another stack's, and applied whole
 * or restricted to the addresses the caller chose (the watcher chooses; apply takes everything).
 */
export interface ReconcileContext {
  readonly backend: StateBackend;
  readonly clients: ApiClients;
  /** Every stack of the app: whose objects a stack may not take, and who reads whose values. */
  readonly all: readonly DesiredStack[];
  /** The states of the stacks read from, shared by the stacks of one run. */
  readonly other: OtherStacks;
  readonly parallelism: number;
  /** Warnings for the operator (readers of a destroyed stack). */
  readonly warn: (message: string) => void;
}

export interface PlanRequest {
  /** Read every object (else compare with state only). @default true */
  readonly refresh?: boolean;
  readonly destroy?: boolean;
  /** Stacks whose destroy this run planned already (their readers go too: no warning). */
  readonly destroyedInRun?: ReadonlySet<string>;
  /** Plans made earlier in this run: an object one of them takes is not free for this stack. */
  readonly plannedInRun?: readonly StackPlan[];
  /** What the last plan of this stack found, kept by a long-running caller (`converge watch`). */
  readonly memo?: PlanMemo;
}

/** Reads the states of the stacks `desired` reads values from (or warns about readers, for a destroy). */
export async function readOtherStacks(desired: DesiredStack, ctx: ReconcileContext, req: PlanRequest = {}): Promise<void> {
  await prepareOtherStacks(ctx.other, ctx.backend, desired, req.destroy, ctx.warn, req.destroyedInRun);
}

/** Plans one stack, under its lock (held by the caller): other stacks' reads, then the plan, then the identity checks. */
export async function planReconciled(desired: DesiredStack, state: StateStore, ctx: ReconcileContext, req: PlanRequest = {}): Promise<StackPlan> {
  await readOtherStacks(desired, ctx, req);
  const plan = await planStack(desired, state, ctx.clients, { parallelism: ctx.parallelism, refresh: req.refresh !== false, destroy: req.destroy,
    otherStacks: ctx.other, readByOtherStacks: readByOtherStacks(ctx.all, desired.stack), memo: req.memo });
  await assertIdentitiesFree(plan.stack, plan.identities, ctx.backend, ctx.all, req.plannedInRun);
  return plan;
}

/** Applies the plan, or only the given addresses of it (everything else stays as it is, on the API and in state). */
export async function applyReconciled(plan: StackPlan, state: StateStore, ctx: ReconcileContext, only?: Iterable<string>,
  options: Omit<ApplyOptions, 'otherStacks' | 'parallelism'> = {}): Promise<ApplyResult> {
  return applyPlan(only ? restrictPlan(plan, only) : plan, state, ctx.clients, { ...options, parallelism: ctx.parallelism, otherStacks: ctx.other });
}

/**
 * The addresses whose declaration in the app is the one the last apply applied, and whose every
 * dependency (what they read, transitively) is too: a plan from state alone, which reads nothing from
 * the API, finds nothing to do for them. Anything else differs from state because the app changed.
 */
export async function unchangedSinceLastApply(desired: DesiredStack, state: StateStore, ctx: ReconcileContext): Promise<Set<string>> {
  const fromState = await planStack(desired, state, ctx.clients, { parallelism: ctx.parallelism, fromState: true, otherStacks: ctx.other,
    readByOtherStacks: readByOtherStacks(ctx.all, desired.stack) });
  const items = new Map(fromState.items.map((i) => [i.address, i]));
  const memo = new Map<string, boolean>();
  const unchanged = (address: string): boolean => {
    const known = memo.get(address);
    if (known !== undefined) return known;
    memo.set(address, false); // a cycle is refused by the planner; this only guards the walk
    const i = items.get(address);
    const r = desired.resources[address];
    const ok = Boolean(i && r && asLastApplied(i) && r.dependsOn.every(unchanged));
    memo.set(address, ok);
    return ok;
  };
  return new Set(Object.keys(desired.resources).filter(unchanged));
}

/** An item of a plan from state that applies nothing. */
function asLastApplied(i: PlanItem): boolean {
  return i.action === 'noop' && !i.stateChanges?.length && !i.deposed?.length && !i.removesPrior && !i.issues && !i.movedFrom;
}
