import { FieldChange } from '../core/engine/handler';
import { countActions, PLAN_FORMAT_VERSION, PlanItem, StackPlan } from '../core/engine/plan-model';
import { effectiveDefault } from './effective-defaults';
import { Output } from './output';

/** One collator for every comparison: `localeCompare` with options builds one per call. */
const NATURAL = new Intl.Collator('en', { numeric: true });

const SYMBOL: Record<string, string> = {
  create: '+', update: '~', replace: '-/+', delete: '-', adopt: '~', forget: '-', read: '<=', noop: ' ', conflict: '!',
};
const VERB: Record<string, string> = {
  create: 'will be created', update: 'will be updated in place', replace: 'must be replaced', delete: 'will be destroyed',
  adopt: 'exists on the API and will be adopted', forget: 'will be removed from state (the object stays)', read: 'will be read',
  noop: 'is up to date', conflict: 'cannot be planned',
};

/** How a plan is listed for people: every field (default), or one line per object. */
export interface RenderOptions {
  /** One line per object and a summary per kind (`--compact`). */
  readonly compact?: boolean;
}

/** Addresses in natural order: `bulk-2` before `bulk-10`. */
export function naturalOrder<T extends { address: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => NATURAL.compare(a.address, b.address));
}

/** Notes by their subject (`traffic svc-2:` before `traffic svc-10:`), each subject's own lines in their order. */
function notesInOrder(notes: readonly string[]): string[] {
  const subject = (n: string) => /^[^:]*/.exec(n)![0];
  return notes.map((n, i) => ({ n, i })).sort((a, b) => subject(a.n).localeCompare(subject(b.n), 'en', { numeric: true }) || a.i - b.i).map((x) => x.n);
}

function show(kind: string, path: string, v: unknown): string {
  if (v === undefined) return '(absent)';
  const effective = effectiveDefault(kind, path, v);
  return effective === undefined ? JSON.stringify(v) : `${JSON.stringify(effective)} (the API's default)`;
}

/** A field's symbol: `+` set where there was nothing, `-` removed, `~` changed. */
function fieldSymbol(action: string, f: FieldChange): string {
  return action === 'create' || f.added ? '+' : f.removed ? '-' : '~';
}

function fieldLine(kind: string, action: string, f: FieldChange): string {
  const mark = f.replace ? ' (forces replacement)' : '';
  // A value is only "changed" where there was one before and is one after: a created object's
  // secret, or one added or removed, is simply "(sensitive)" (the line's symbol says which).
  if (f.sensitive) return `${f.path} = (sensitive${action === 'create' || f.added || f.removed ? '' : ', changed'})${mark}`;
  const v = (x: unknown) => show(kind, f.path, x);
  if (f.unknown) return `${f.path} = ${v(f.before)} -> (known after apply)${mark}`;
  if (f.before === undefined) return `${f.path} = ${v(f.after)}${mark}`;
  if (f.after === undefined) return `${f.path} = ${v(f.before)} -> (removed)${mark}`;
  return `${f.path} = ${v(f.before)} -> ${v(f.after)}${mark}`;
}

/**
 * The plan for people: coloured, `+ ~ - -/+`, one line per field; with `compact`, one line per
 * object and a summary per kind. Under `--quiet` only warnings, conflicts and the summary line remain.
 */
export function renderPlan(plan: StackPlan, out: Output, options: RenderOptions = {}): void {
  const c = out.c;
  const colour = (a: string) => ({ create: c.green, update: c.yellow, adopt: c.yellow, replace: c.magenta, delete: c.red, forget: c.red, read: c.cyan, conflict: c.red }[a] ?? ((s: string) => s));
  const items = naturalOrder(plan.items);
  const acting = items.filter((i) => i.action !== 'noop' || i.stateChanges?.length || i.deposed?.length);
  // Data sources are read on every plan: reads alone change nothing (as `hasChanges` and the exit code say).
  const changing = acting.some((i) => i.action !== 'read' || i.stateChanges?.length || i.deposed?.length || i.removesPrior);
  const noChanges = () => c.green(`No changes. Stack ${plan.stack} matches the app (${plan.items.length} object${plan.items.length === 1 ? '' : 's'}).`);
  if (out.options.quiet) {
    for (const i of acting) {
      if (i.action === 'conflict') out.result(c.red(`! ${i.address}: ${i.reason ?? VERB.conflict}`));
      for (const w of i.warnings) out.result(c.red(`! ${i.address}: ${w}`));
    }
    out.result(changing ? summaryLine(plan) : noChanges());
    return;
  }
  const drifted = items.filter((i) => i.drift.length);
  if (drifted.length) {
    out.result(c.bold(`Drift: objects changed outside converge in stack ${plan.stack}:`));
    for (const i of drifted) {
      out.result(`  ${c.yellow('~')} ${i.address} (${i.kind})`);
      if (options.compact) continue;
      for (const f of i.drift) out.result(`      ${c.yellow(fieldSymbol('update', f))} ${f.sensitive ? `${f.path} = (sensitive, ${f.added ? 'added' : f.removed ? 'removed' : 'changed'} outside converge)` : fieldLine(i.kind, 'update', f)}`);
    }
    out.result('');
  }
  if (!changing) {
    out.result(noChanges());
  } else {
    out.result(c.bold(`converge will perform the following actions in stack ${plan.stack}:`));
    if (options.compact) {
      out.result('');
      for (const i of acting) renderItem(i, out, colour(i.action), true);
      out.result('');
      for (const line of kindSummary(acting)) out.result(`  ${line}`);
    } else {
      for (const i of acting) renderItem(i, out, colour(i.action), false);
    }
  }
  if (plan.notes.length) {
    out.result('');
    out.result(c.bold('What changes for traffic:'));
    for (const n of notesInOrder(plan.notes)) out.result(`  ${n}`);
  }
  out.result(summaryLine(plan));
}

/**
 * One object: its head line, then (not `compact`) a line per field. Compact: the head line ends
 * with the paths of the fields that change (`~ team/db (secrets.KvSecret) will be updated in place: data.password`).
 */
function renderItem(i: PlanItem, out: Output, colour: (s: string) => string, compact: boolean): void {
  if (!compact) out.result('');
  const symbol = (s: string) => colour(compact ? s.padEnd(3) : s);
  if (i.action === 'noop') {
    const what = [...(i.stateChanges ?? []), ...(i.deposed?.length ? [`delete ${i.deposed.join(', ')} left by an interrupted replace`] : [])];
    out.result(`  ${symbol('~')} ${compact ? i.address : out.c.bold(i.address)} (${i.kind}) state will be updated (${what.join('; ')})`);
    return;
  }
  if (i.removesPrior) {
    // The resource that was at this address leaves the app (it became a lookup), shown as any removal.
    const p = i.removesPrior;
    out.result(`  ${symbol(SYMBOL[p.action])} ${compact ? i.address : out.c.bold(i.address)} (${p.kind}) ${VERB[p.action]} (${p.reason})`);
    for (const w of p.warnings) out.result(`      ${out.c.red(out.c.bold('! ' + w))}`);
  }
  const moved = i.movedFrom ? ` (moved from ${i.movedFrom})` : '';
  const head = `${i.kind}) ${VERB[i.action]}${i.reason ? ` (${i.reason})` : ''}${moved}`;
  if (compact) {
    const fields = i.action === 'create' || i.action === 'delete' || !i.changes.length ? '' : `: ${i.changes.map((f) => f.path).join(', ')}`;
    out.result(`  ${symbol(SYMBOL[i.action])} ${i.address} (${head}${fields}`);
  } else {
    out.result(`  ${symbol(SYMBOL[i.action])} ${out.c.bold(i.address)} (${head}`);
    for (const f of i.changes) out.result(`      ${colour(f.replace ? '-/+' : fieldSymbol(i.action, f))} ${fieldLine(i.kind, i.action, f)}`);
  }
  for (const w of i.warnings) out.result(`      ${out.c.red(out.c.bold('! ' + w))}`);
}

const SUMMARY_WORD: Record<string, string> = {
  create: 'to add', update: 'to change', replace: 'to replace', delete: 'to destroy', adopt: 'to adopt', forget: 'to forget',
  read: 'to read', conflict: 'in conflict',
};

/** One line per kind: `secrets.KvSecret: 120 to add, 3 to change`. */
function kindSummary(items: readonly PlanItem[]): string[] {
  const byKind = new Map<string, PlanItem[]>();
  for (const i of items) byKind.set(i.kind, [...(byKind.get(i.kind) ?? []), i]);
  return [...byKind.keys()].sort().map((kind) => {
    const n = countActions(byKind.get(kind)!);
    const parts = Object.keys(SUMMARY_WORD).filter((a) => n[a]).map((a) => `${n[a]} ${SUMMARY_WORD[a]}`);
    return `${kind}: ${parts.length ? parts.join(', ') : `${byKind.get(kind)!.length} with state updates`}`;
  });
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
      changes: naturalOrder(p.items).map((i) => ({
        address: i.address, kind: i.kind, action: i.action, id: i.id ?? null, reason: i.reason ?? null,
        fields: i.changes, drift: i.drift, warnings: i.warnings,
        ...(i.movedFrom ? { moved_from: i.movedFrom } : {}), ...(i.stateChanges?.length ? { state_changes: i.stateChanges } : {}),
      })),
      notes: p.notes,
    })),
  };
}
