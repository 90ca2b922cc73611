import { FieldChange } from '../core/engine/handler';
import { countActions, PLAN_FORMAT_VERSION, PlanItem, StackPlan } from '../core/engine/plan-model';
import { Output } from './output';

const SYMBOL: Record<string, string> = {
  create: '+', update: '~', replace: '-/+', delete: '-', adopt: '~', forget: '-', read: '<=', noop: ' ', conflict: '!',
};
const VERB: Record<string, string> = {
  create: 'will be created', update: 'will be updated in place', replace: 'must be replaced', delete: 'will be destroyed',
  adopt: 'exists on the API and will be adopted', forget: 'will be removed from state (the object stays)', read: 'will be read',
  noop: 'is up to date', conflict: 'cannot be planned',
};

function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  return JSON.stringify(v);
}

function fieldLine(f: FieldChange): string {
  const mark = f.replace ? ' (forces replacement)' : '';
  if (f.sensitive) return `${f.path} = (sensitive${f.before === undefined && f.after === undefined ? ', changed' : ''})${mark}`;
  if (f.unknown) return `${f.path} = ${show(f.before)} -> (known after apply)${mark}`;
  if (f.before === undefined) return `${f.path} = ${show(f.after)}${mark}`;
  if (f.after === undefined) return `${f.path} = ${show(f.before)} -> (removed)${mark}`;
  return `${f.path} = ${show(f.before)} -> ${show(f.after)}${mark}`;
}

/** The plan for people: coloured, `+ ~ - -/+`, one line per field. */
export function renderPlan(plan: StackPlan, out: Output): void {
  const c = out.c;
  const colour = (a: string) => ({ create: c.green, update: c.yellow, adopt: c.yellow, replace: c.magenta, delete: c.red, forget: c.red, read: c.cyan, conflict: c.red }[a] ?? ((s: string) => s));
  const drifted = plan.items.filter((i) => i.drift.length);
  if (drifted.length) {
    out.result(c.bold(`Drift: objects changed outside converge in stack ${plan.stack}:`));
    for (const i of drifted) {
      out.result(`  ${c.yellow('~')} ${i.address} (${i.kind})`);
      for (const f of i.drift) out.result(`      ${c.yellow('~')} ${f.sensitive ? `${f.path} = (sensitive, changed outside converge)` : fieldLine(f)}`);
    }
    out.result('');
  }
  const acting = plan.items.filter((i) => i.action !== 'noop' || i.stateChanges?.length || i.deposed?.length);
  if (!acting.length) {
    out.result(c.green(`No changes. Stack ${plan.stack} matches the app (${plan.items.length} objects).`));
  } else {
    out.result(c.bold(`converge will perform the following actions in stack ${plan.stack}:`));
    for (const i of acting) renderItem(i, out, colour(i.action));
  }
  for (const n of plan.notes) out.result(n);
  out.result(summaryLine(plan));
}

function renderItem(i: PlanItem, out: Output, colour: (s: string) => string): void {
  out.result('');
  if (i.action === 'noop') {
    const what = [...(i.stateChanges ?? []), ...(i.deposed?.length ? [`delete ${i.deposed.join(', ')} left by an interrupted replace`] : [])];
    out.result(`  ${colour('~')} ${out.c.bold(i.address)} (${i.kind}) state will be updated (${what.join('; ')})`);
    return;
  }
  const moved = i.movedFrom ? ` (moved from ${i.movedFrom})` : '';
  out.result(`  ${colour(SYMBOL[i.action])} ${out.c.bold(i.address)} (${i.kind}) ${VERB[i.action]}${i.reason ? ` (${i.reason})` : ''}${moved}`);
  for (const f of i.changes) out.result(`      ${colour(f.replace ? '-/+' : i.action === 'create' ? '+' : '~')} ${fieldLine(f)}`);
  for (const w of i.warnings) out.result(`      ${out.c.red(out.c.bold('! ' + w))}`);
}

export function summaryLine(plan: StackPlan): string {
  const n = countActions(plan.items);
  const extra = [n.adopt ? `${n.adopt} to adopt` : '', n.forget ? `${n.forget} to forget` : '', n.conflict ? `${n.conflict} in conflict` : ''].filter(Boolean).join(', ');
  return `Plan: ${n.create} to add, ${n.update} to change, ${n.replace} to replace, ${n.delete} to destroy${extra ? ', ' + extra : ''}.`;
}

/** The plan for machines (`--json`): a documented, versioned document without any secret value. */
export function planJson(plans: StackPlan[]): unknown {
  return {
    format_version: PLAN_FORMAT_VERSION,
    stacks: plans.map((p) => ({
      stack: p.stack,
      lineage: p.lineage,
      serial: p.serial,
      summary: countActions(p.items),
      changes: p.items.map((i) => ({
        address: i.address, kind: i.kind, action: i.action, id: i.id ?? null, reason: i.reason ?? null,
        fields: i.changes, drift: i.drift, warnings: i.warnings,
        ...(i.movedFrom ? { moved_from: i.movedFrom } : {}), ...(i.stateChanges?.length ? { state_changes: i.stateChanges } : {}),
      })),
      notes: p.notes,
    })),
  };
}
