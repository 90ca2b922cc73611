import { FieldChange } from '../../core/engine/handler';
import { PlanItem, StackPlan } from '../../core/engine/plan-model';
import { isAttrRef } from '../../core/model';

/**
 * What a watch cycle's plan says, sorted by who caused it. The rule (docs/watch.md): a cycle may
 * write an object back only when the API differs from what the app declares, the app's declaration
 * of it is the last apply's, and so is that of everything it reads (`unchanged`: a plan from state
 * finds nothing to do for it). Then:
 * - `drifted`: objects changed (or deleted) outside converge since the last apply;
 * - `revertable`: the drifted objects whose every planned change only undoes that drift (what
 *   `--on-drift revert` writes back);
 * - `renewals`: credentials due to be issued again (a lease past two thirds, or gone), and the
 *   objects whose only changes are values those credentials feed (known after apply);
 * - `upstream`: objects whose only changes are values they read from another construct (a lookup
 *   that reads something new, a rotated token);
 * - `appChanges`: everything else that would change: the app differs from state (`converge apply`'s job).
 */
export interface CycleFindings {
  readonly drifted: PlanItem[];
  readonly revertable: PlanItem[];
  readonly renewals: PlanItem[];
  readonly upstream: PlanItem[];
  readonly appChanges: PlanItem[];
  readonly conflicts: PlanItem[];
}

const OBJECT = '(object)';

/** Whether every change of the item undoes drift (the same fields, or the object deleted outside converge). */
export function onlyUndoesDrift(i: PlanItem): boolean {
  if (!i.drift.length) return false;
  if (i.drift.some((d) => d.path === OBJECT)) return i.action === 'create';
  const drifted = new Set(i.drift.map((d) => d.path));
  return ['update', 'replace'].includes(i.action) && i.changes.length > 0 && i.changes.every((c) => drifted.has(c.path) || [...drifted].some((d) => c.path.startsWith(`${d}.`)));
}

/**
 * Sorts the plan's items; `unchanged` holds the addresses whose declaration (and all they read) is
 * the last apply's: only those may be written back, renewed or updated from upstream.
 */
export function classifyPlan(plan: StackPlan, unchanged: ReadonlySet<string>): CycleFindings {
  const byAddress = new Map(plan.items.map((i) => [i.address, i]));
  const asApplied = (i: PlanItem) => unchanged.has(i.address) && !i.removesPrior;
  const drifted = plan.items.filter((i) => i.drift.length > 0);
  const revertable = drifted.filter((i) => asApplied(i) && onlyUndoesDrift(i));
  const issuing = new Set(plan.items.filter((i) => i.issues && asApplied(i)).map((i) => i.address));
  // A consumer of a credential issued again: every change is a value known only after the read.
  const feeds = (i: PlanItem) => i.action === 'update' && i.changes.length > 0 && i.changes.every((c) => c.unknown) &&
    (plan.desired.resources[i.address]?.dependsOn ?? []).some((d) => issuing.has(d) || feedsRenewal(d, byAddress, plan, issuing, new Set()));
  const consumers = plan.items.filter((i) => !i.dataSource && asApplied(i) && !revertable.includes(i) && feeds(i));
  // A value it reads from another construct changed (a rotated stored token, a lookup that reads something new).
  const readers = plan.items.filter((i) => !i.dataSource && asApplied(i) && !i.drift.length && i.action === 'update' && !consumers.includes(i) &&
    i.changes.every((c) => readsReference(plan.desired.resources[i.address]?.spec, c.path)));
  const renewals = [...plan.items.filter((i) => issuing.has(i.address)), ...consumers];
  const accounted = new Set([...revertable, ...renewals, ...readers].map((i) => i.address));
  const appChanges = plan.items.filter((i) => !accounted.has(i.address) && changes(i) && !(i.drift.length && i.action === 'noop'));
  return { drifted, revertable, renewals, upstream: readers, appChanges, conflicts: plan.items.filter((i) => i.action === 'conflict') };
}

/** Whether the address's own changes come from a renewal further up (a chain of references). */
function feedsRenewal(address: string, items: Map<string, PlanItem>, plan: StackPlan, issuing: Set<string>, seen: Set<string>): boolean {
  if (seen.has(address)) return false;
  seen.add(address);
  const i = items.get(address);
  if (!i || i.action !== 'update' || !i.changes.every((c) => c.unknown)) return false;
  return (plan.desired.resources[address]?.dependsOn ?? []).some((d) => issuing.has(d) || feedsRenewal(d, items, plan, issuing, seen));
}

/** Whether the spec's value at the dotted path (or above it) is, or holds, a reference to another construct's attribute. */
export function readsReference(spec: Record<string, unknown> | undefined, dotted: string): boolean {
  let v: unknown = spec;
  for (const seg of dotted.split('.')) {
    if (isAttrRef(v)) return true;
    if (v === null || typeof v !== 'object') return false;
    v = (v as Record<string, unknown>)[seg];
  }
  const holds = (x: unknown): boolean => isAttrRef(x) || (x !== null && typeof x === 'object' && Object.values(x as object).some(holds));
  return holds(v);
}

/** Whether applying the item would change anything (on the API or in state). */
function changes(i: PlanItem): boolean {
  return !['noop', 'read', 'conflict'].includes(i.action) || Boolean(i.issues) || Boolean(i.stateChanges?.length) || Boolean(i.deposed?.length) || Boolean(i.removesPrior);
}

/** One field's change as a plan shows it: sensitive values masked. */
export function describeChange(c: FieldChange): string {
  if (c.path === OBJECT) return `${c.after}`;
  if (c.sensitive) return `${c.path} (sensitive, changed)`;
  return `${c.path}: ${show(c.before)} -> ${show(c.after)}`;
}

/** A change as a JSON event carries it: sensitive values never, only that they changed. */
export function changeJson(c: FieldChange): Record<string, unknown> {
  if (c.sensitive) return { path: c.path, sensitive: true };
  return { path: c.path, before: c.before ?? null, after: c.after ?? null };
}

function show(v: unknown): string {
  if (v === undefined) return '(none)';
  return JSON.stringify(v);
}

/** A fingerprint of an item's drift, so that the same drift is reported once, not every cycle. */
export function driftKey(i: PlanItem): string {
  return JSON.stringify(i.drift.map((d) => [d.path, d.sensitive ? '(sensitive)' : d.before, d.sensitive ? '(sensitive)' : d.after]));
}
