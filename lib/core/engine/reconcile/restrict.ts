import { PlanItem, StackPlan } from '../plan-model';

/**
 * The plan restricted to a set of addresses: every other change is left out (its object and its
 * record stay as they are). Unchanged objects and plain reads stay in, so that references resolve;
 * a read that issues credentials, records something, or takes the place of a resource (`removesPrior`)
 * is a change like any other, and goes only when chosen.
 */
export function restrictPlan(plan: StackPlan, addresses: Iterable<string>): StackPlan {
  const keep = new Set(addresses);
  return { ...plan, items: plan.items.filter((i) => keep.has(i.address) || passive(i)) };
}

/** An item that changes nothing when applied. */
function passive(i: PlanItem): boolean {
  if (i.stateChanges?.length || i.deposed?.length || i.removesPrior || i.issues) return false;
  return i.action === 'noop' || i.action === 'read';
}
