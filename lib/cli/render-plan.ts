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

/** A field's symbol: `+` set where there was nothing (a list item added too), `-` removed, `~` changed. */
function fieldSymbol(action: string, f: FieldChange): string {
  if (action === 'create' || f.added) return '+';
  if (f.removed) return '-';
  if (!f.sensitive && !f.unknown && f.before === undefined && f.after !== undefined) return '+';
  if (!f.sensitive && !f.unknown && f.after === undefined && f.before !== undefined) return '-';
  return '~';
}

/** The path of a whole object's change (created again after a deletion outside converge). */
const OBJECT_PATH = '(object)';

/** Nothing set: a new object's field that is null, empty or absent is not listed (as Terraform lists no null attribute). */
function unset(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}

/**
 * The value the app gives a dotted path (`data.a`, `meshPolicies[0]`), or `found: false` where the path
 * cannot be followed (a key with a dot in it): such a field is always listed.
 */
function desiredAt(spec: unknown, path: string): { found: boolean; value?: unknown } {
  let v = spec;
  for (const seg of path.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(seg);
    if (!m || v === null || typeof v !== 'object' || !(m[1] in (v as object))) return { found: false };
    v = (v as Record<string, unknown>)[m[1]];
    for (const i of m[2].match(/\d+/g) ?? []) {
      if (!Array.isArray(v) || Number(i) >= v.length) return { found: false };
      v = v[Number(i)];
    }
  }
  return { found: true, value: v };
}

/** The fields a plan lists for an item: a created object's unset fields (a secret not given included) are left out. */
function listedChanges(i: PlanItem, spec: Record<string, unknown> | undefined): readonly FieldChange[] {
  if (i.action !== 'create' || !spec) return i.changes;
  return i.changes.filter((f) => {
    if (f.unknown || f.path === OBJECT_PATH) return true;
    const at = desiredAt(spec, f.path);
    return !at.found || !unset(at.value);
  });
}

function fieldLine(kind: string, action: string, f: FieldChange): string {
  const mark = f.replace ? ' (forces replacement)' : '';
  // A value is only "changed" where there was one before and is one after: a created object's
  // secret, or one added or removed, is simply "(sensitive)" (the line's symbol says which).
  if (f.sensitive) return `${f.path} = (sensitive${action === 'create' || f.added || f.removed ? '' : ', changed'})${mark}`;
  const v = (x: unknown) => show(kind, f.path, x);
  if (f.unknown) return `${f.path} = ${v(f.before)} -> (known after apply)${mark}`;
  if (f.before === undefined) return `${f.path} = ${v(f.after)}${mark}`;
  if (f.after === undefined) return /\]$/.test(f.path) ? `${f.path} = ${v(f.before)}${mark}` : `${f.path} = ${v(f.before)} -> (removed)${mark}`;
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
      if (i.drift.some((f) => f.path === OBJECT_PATH)) {
        out.result(`  ${c.yellow('#')} ${i.address} has been deleted outside converge (${i.kind})`);
        continue;
      }
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
      for (const i of acting) renderItem(i, out, colour(i.action), false, plan.desired.resources[i.address]?.spec);
    }
  }
  if (plan.notes.length) {
    out.result('');
    out.result(c.bold('What changes for traffic:'));
    for (const n of notesInOrder(plan.notes)) out.result(`  ${n}`);
  }
  out.result('');
  out.result(summaryLine(plan));
}

/**
 * One object: its head line, then (not `compact`) a line per field. Compact: the head line ends
 * with the paths of the fields that change (`~ team/db (secrets.KvSecret) will be updated in place: data.password`).
 */
function renderItem(i: PlanItem, out: Output, colour: (s: string) => string, compact: boolean, spec?: Record<string, unknown>): void {
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
    const blocks = i.action === 'create' ? new Map<string, ListBlock>() : listBlocks(i.changes, spec);
    for (const f of listedChanges(i, spec)) {
      const name = indexedList(f.path);
      const block = name === undefined ? undefined : blocks.get(name);
      if (!block) {
        out.result(`      ${colour(f.replace ? '-/+' : fieldSymbol(i.action, f))} ${fieldLine(i.kind, i.action, f)}`);
        continue;
      }
      if (block.shown) continue;
      block.shown = true;
      out.result(`      ${colour(block.replace ? '-/+' : '~')} ${name} = [${block.replace ? ' (forces replacement)' : ''}`);
      for (const l of block.lines) out.result(`          ${l.mark === ' ' ? ' ' : colour(l.mark)} ${JSON.stringify(l.value)},`);
      out.result('        ]');
    }
  }
  for (const w of i.warnings) out.result(`      ${out.c.red(out.c.bold('! ' + w))}`);
}

/** A list field whose items changed, shown whole: each item kept, added (`+`) or removed (`-`). */
interface ListBlock {
  readonly lines: { mark: ' ' | '+' | '-'; value: unknown }[];
  readonly replace: boolean;
  shown?: boolean;
}

/** `meshPolicies` for `meshPolicies[2]`; undefined for any other path. */
function indexedList(path: string): string | undefined {
  return /^([^[\]]+)\[\d+\]$/.exec(path)?.[1];
}

/**
 * Lists of plain values whose changes are all item changes: before is the app's list with each changed
 * item put back, so the block shows what a reader compares (`+ "db"`), not index shifts (`[1] "web" -> "ops"`).
 */
function listBlocks(changes: readonly FieldChange[], spec: Record<string, unknown> | undefined): Map<string, ListBlock> {
  const byList = new Map<string, FieldChange[]>();
  for (const f of changes) {
    const name = indexedList(f.path);
    if (name !== undefined) byList.set(name, [...(byList.get(name) ?? []), f]);
  }
  const blocks = new Map<string, ListBlock>();
  for (const [name, fs] of byList) {
    const after = spec?.[name];
    if (!Array.isArray(after) || after.some((x) => x !== null && typeof x === 'object') || fs.some((f) => f.sensitive || f.unknown)) continue;
    if (changes.some((f) => f.path === name || f.path.startsWith(`${name}.`))) continue;
    const at = new Map(fs.map((f) => [Number(/\[(\d+)\]$/.exec(f.path)![1]), f]));
    const before: unknown[] = [];
    for (let i = 0; i < Math.max(after.length, ...[...at.keys()].map((k) => k + 1)); i++) {
      const f = at.get(i);
      if (!f) before.push(after[i]);
      else if (f.before !== undefined) before.push(f.before);
    }
    // Each value kept once per occurrence on both sides, in the app's order; then what goes away.
    const left = before.map((v) => JSON.stringify(v));
    const lines: ListBlock['lines'] = [];
    for (const v of after) {
      const k = left.indexOf(JSON.stringify(v));
      if (k >= 0) { left.splice(k, 1, '\u0000'); lines.push({ mark: ' ', value: v }); } else lines.push({ mark: '+', value: v });
    }
    left.forEach((k, i) => { if (k !== '\u0000') lines.push({ mark: '-', value: before[i] }); });
    blocks.set(name, { lines, replace: fs.some((f) => f.replace) });
  }
  return blocks;
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
