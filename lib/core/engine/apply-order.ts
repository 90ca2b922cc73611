import { StateStore } from '../state/state-store';
import { PlanItem, StackPlan } from './plan-model';

/** Actions that bring an object (or a data source's read) to the app. */
export const FORWARD = new Set(['create', 'update', 'replace', 'adopt', 'read', 'noop']);
export const REMOVAL = new Set(['delete', 'forget']);

/**
 * The order of a plan's operations: for each address, the addresses whose operation must finish
 * first.
 * - An object goes after what it references (its dependencies in the app).
 * - An object is removed after everything that depended on it in state is removed or updated:
 *   the former dependents stop using it first.
 * - When a dependency's update only removes things (a subset, a route target) and its dependent
 *   is updated too, the dependent goes first: it stops using what is removed.
 * - A dependent that is deleted goes before the update of what it depended on.
 * The order does not depend on `--parallelism`: it only bounds how many run at once.
 */
export function applyOrder(plan: StackPlan, state: StateStore): Map<string, string[]> {
  const items = new Map(plan.items.map((i) => [i.address, i]));
  const before = new Map<string, Set<string>>();
  const edge = (first: string, then: string) => {
    if (first === then || !items.has(first) || !items.has(then)) return;
    let s = before.get(then);
    if (!s) before.set(then, s = new Set());
    s.add(first);
  };
  const reversed: [string, string][] = [];
  for (const i of plan.items) {
    if (!FORWARD.has(i.action)) continue;
    for (const d of plan.desired.resources[i.address]?.dependsOn ?? []) {
      const dep = items.get(d);
      if (!dep || !FORWARD.has(dep.action)) continue;
      if (i.action === 'update' && dep.action === 'update' && onlyRemoves(dep)) reversed.push([i.address, d]);
      else edge(d, i.address);
    }
  }
  // Removals wait for whatever depended on them in state, whether it is removed or updated; a data
  // source that depended on it (a discovery chain on its entries) is read after it, seeing it gone.
  for (const [addr, rec] of Object.entries(state.records)) {
    for (const d of rec.dependsOn) {
      const removed = items.get(d);
      if (!removed || !REMOVAL.has(removed.action)) continue;
      if (items.get(addr)?.action === 'read') edge(d, addr);
      else edge(addr, d);
    }
  }
  // A moved construct's old address is forgotten once the new one holds the record.
  for (const i of plan.items) if (i.movedTo) edge(i.movedTo, i.address);
  // A dependent that is deleted goes before its dependency's update: the update may no longer permit
  // it (a service's protocol changed to tcp while its router still exists), and a dependent that is
  // going needs nothing the update brings.
  const deletedFirst: [string, string][] = [];
  for (const [addr, rec] of Object.entries(state.records)) {
    if (items.get(addr)?.action !== 'delete') continue;
    for (const d of rec.dependsOn) {
      const dep = items.get(d);
      if (dep && ['update', 'replace', 'adopt'].includes(dep.action) && !before.get(d)?.has(addr)) deletedFirst.push([addr, d]);
    }
  }
  for (const [removed, dependency] of deletedFirst) edge(removed, dependency);
  if (hasCycle(before)) {
    for (const [removed, dependency] of deletedFirst) before.get(dependency)?.delete(removed);
  }
  for (const [dependent, dependency] of reversed) edge(dependent, dependency);
  if (hasCycle(before)) {
    // The reversed edges made a cycle: keep the order of the references instead.
    for (const [dependent, dependency] of reversed) {
      before.get(dependency)?.delete(dependent);
      edge(dependency, dependent);
    }
  }
  return new Map([...items.keys()].map((a) => [a, [...(before.get(a) ?? [])]]));
}

/** Whether an update only takes things away (every change has a before and no after). */
function onlyRemoves(item: PlanItem): boolean {
  return item.changes.length > 0 && item.changes.every((c) => !c.sensitive && !c.unknown && c.before !== undefined && c.after === undefined);
}

function hasCycle(before: Map<string, Set<string>>): boolean {
  const mark = new Map<string, 1 | 2>();
  const visit = (n: string): boolean => {
    const m = mark.get(n);
    if (m === 2) return false;
    if (m === 1) return true;
    mark.set(n, 1);
    for (const d of before.get(n) ?? []) if (visit(d)) return true;
    mark.set(n, 2);
    return false;
  };
  return [...before.keys()].some(visit);
}
