import { DesiredResource } from '../model';
import { StateRecord } from '../state/state-model';
import { diffAgainstPrior, diffAndDrift, diffSpec } from './diff';
import { FieldChange, HandlerContext, Observed, ResourceHandler } from './handler';
import { findCandidates, intentCandidates } from './ownership';
import { PlanItem } from './plan-model';
import { PlanMemo } from './plan-memo';
import { ResolvedSpec } from './resolve-spec';

/** What planning one object found, kept for references and for apply. */
export interface Planned {
  readonly item: PlanItem;
  readonly resolved?: ResolvedSpec;
  /** Attributes read from the API (or from state when not read); sensitive ones are not here. */
  readonly outputs?: Record<string, unknown>;
  /** Data sources only: output keys that are secrets. */
  readonly sensitiveOutputs?: readonly string[];
}

/** An orphan (a state record the app no longer has) that a new address may have taken over. */
export interface MoveSource {
  readonly address: string;
  readonly record: StateRecord;
}

/** What a resource's plan needs besides the object itself. */
export interface ObjectPlanInput {
  readonly address: string;
  readonly r: DesiredResource;
  readonly resolved: ResolvedSpec;
  readonly rec: StateRecord | undefined;
  readonly handler: ResourceHandler;
  readonly ctx: HandlerContext;
  readonly refresh: boolean;
  /** State records of the same kind whose construct is gone: a move is recognised by identity among these. */
  readonly orphansOfKind: readonly MoveSource[];
  /** What the last plan of the stack found (a watcher's): an object read as it was then is not diffed again. */
  readonly memo?: PlanMemo;
}

type Base = { address: string; kind: string; drift: FieldChange[]; warnings: string[] };

const conflictReason = (address: string, id: string) =>
  `exists on the API and is not managed by converge; to manage it: converge import ${address} ${id} (or set adoptExisting on the construct)`;

/**
 * Plans one resource: managed (state says created), recovering (state holds converge's intent:
 * adopt what the interrupted create made, and only that), or new (anything already there under its
 * identity is a conflict, unless it is the same object under a moved construct or the construct opts
 * in with `adoptExisting`).
 */
export async function planObject(input: ObjectPlanInput): Promise<Planned> {
  const { address, r, resolved, rec, handler, ctx, refresh } = input;
  const base: Base = { address, kind: r.kind, drift: [], warnings: [] };

  if (rec && rec.kind !== r.kind) {
    // The kind changed at this address: the old object goes, a new one is created.
    const fresh = await planObject({ ...input, rec: undefined });
    if (fresh.item.action !== 'create') return fresh;
    return { ...fresh, item: { ...fresh.item, action: 'replace', id: rec.id, priorKind: rec.kind,
      reason: `the kind changes from ${rec.kind} to ${r.kind}`, warnings: handler.destroyWarning ? [handler.destroyWarning] : [] } };
  }

  if (rec?.status === 'created') {
    if (!refresh && !rec.deletedOutside) return planFromState(input);
    const observed = await handler.read(ctx, rec.id!, resolved.value, { id: rec.id!, spec: rec.spec, outputs: rec.outputs });
    if (!observed) {
      const changes = allNew(resolved, handler);
      return { item: { ...base, drift: [deletedOutside], action: 'create', changes, warnings: handler.recreateWarning ? [handler.recreateWarning] : [] }, resolved };
    }
    const diffed = (): PlanItem => {
      const { changes, drift } = diffAndDrift(resolved, observed.fields, rec, handler);
      const item = classify({ ...base, drift }, rec.id, changes, handler.destroyWarning);
      return { ...item, ...seen(observed), warnings: [...item.warnings, ...(observed.notes ?? [])] };
    };
    return { item: input.memo ? input.memo.item(address, r.kind, resolved, rec, observed, diffed) : diffed(), resolved, outputs: observed.outputs };
  }

  if (resolved.hasUnknown) {
    // Its identity depends on objects not created yet: nothing can exist under it.
    return { item: { ...base, action: 'create', changes: allNew(resolved, handler) }, resolved };
  }

  if (rec?.status === 'creating') return planRecovery(input, base);

  // New to converge: what exists under its identity is somebody else's, unless it moved here.
  const naturalId = handler.naturalId(resolved.value);
  if (naturalId) {
    const observed = await handler.read(ctx, naturalId, resolved.value);
    if (!observed) return { item: { ...base, action: 'create', changes: allNew(resolved, handler) }, resolved };
    return existing(input, base, observed.id ?? naturalId, observed);
  }
  if (handler.find && (r.adoptExisting || input.orphansOfKind.length)) {
    const candidates = await findCandidates(handler, ctx, resolved.value);
    const moved = candidates.find((c) => input.orphansOfKind.some((o) => o.record.id === c.id));
    if (moved) {
      const observed = await handler.read(ctx, moved.id, resolved.value);
      if (observed) return existing(input, base, moved.id, observed);
    }
    if (r.adoptExisting && candidates.length > 1) {
      return { item: { ...base, action: 'conflict', changes: [],
        reason: `adoptExisting: ${candidates.length} objects match (${candidates.map((c) => c.id).join(', ')}); import the right one: converge import ${address} ID` } };
    }
    if (r.adoptExisting && candidates.length === 1) {
      const observed = await handler.read(ctx, candidates[0].id, resolved.value);
      if (observed) return existing(input, base, candidates[0].id, observed);
    }
  }
  return { item: { ...base, action: 'create', changes: allNew(resolved, handler) }, resolved };
}

/** Whether planObject answers from state alone (no refresh, a record of the same kind, created): it sends no request. */
export function plannedFromState(input: ObjectPlanInput): boolean {
  const { rec, r, refresh } = input;
  return !refresh && rec !== undefined && rec.kind === r.kind && rec.status === 'created' && !rec.deletedOutside;
}

/** The plan of an object from its state record alone (see plannedFromState), at once. */
export function planFromState(input: ObjectPlanInput): Planned {
  const { address, r, resolved, handler } = input;
  const rec = input.rec!;
  const changes = diffAgainstPrior(resolved, rec, handler);
  return { item: classify({ address, kind: r.kind, drift: [], warnings: [] }, rec.id, changes, handler.destroyWarning), resolved, outputs: rec.outputs };
}

/** An object found under a new construct's identity: a moved construct, an opted-in adoption, or a conflict. */
function existing(input: ObjectPlanInput, base: Base, id: string, observed: Observed): Planned {
  const { address, r, resolved, handler } = input;
  const from = input.orphansOfKind.find((o) => o.record.id === id || o.record.id === observed.id);
  if (from) {
    const { changes, drift } = diffAndDrift(resolved, observed.fields, from.record, handler);
    const item = classify({ ...base, drift }, id, changes, handler.destroyWarning);
    return { item: { ...item, ...seen(observed), movedFrom: from.address, stateChanges: [`moved from ${from.address}`] }, resolved, outputs: observed.outputs };
  }
  if (r.adoptExisting || handler.alwaysExists) {
    const changes = diffSpec(resolved, observed.fields, undefined, handler);
    const reason = r.adoptExisting ? 'exists on the API: adopted (adoptExisting)' : 'settings that always exist: taken over';
    return { item: { ...base, action: 'adopt', id, changes, reason, ...seen(observed) }, resolved, outputs: observed.outputs };
  }
  return { item: { ...base, action: 'conflict', id, changes: [], reason: conflictReason(address, id) } };
}

/**
 * State holds converge's intent for this address: a create was interrupted. Adopt what it made,
 * and only that: by natural key, or the single candidate created at or after the intent.
 */
async function planRecovery(input: ObjectPlanInput, base: Base): Promise<Planned> {
  const { address, resolved, rec, handler, ctx } = input;
  const adopt = (id: string, observed: Observed): Planned => {
    const changes = diffSpec(resolved, observed.fields, undefined, handler);
    return { item: { ...base, action: 'adopt', id, changes, reason: 'made by a create that was interrupted: adopted', ...seen(observed) }, resolved, outputs: observed.outputs };
  };
  const naturalId = handler.naturalId(resolved.value);
  if (naturalId) {
    const observed = await handler.read(ctx, naturalId, resolved.value);
    return observed ? adopt(observed.id ?? naturalId, observed) : { item: { ...base, action: 'create', changes: allNew(resolved, handler) }, resolved };
  }
  if (handler.find) {
    const { ours, others } = await intentCandidates(handler, ctx, resolved.value, rec!);
    if (ours.length === 1) {
      const observed = await handler.read(ctx, ours[0].id, resolved.value);
      if (observed) return adopt(ours[0].id, observed);
    }
    if (ours.length > 1) {
      return { item: { ...base, action: 'conflict', changes: [], reason: `a create that was interrupted may have made any of ${ours.map((c) => c.id).join(', ')}; ` +
        `import the right one (converge import ${address} ID) and delete the others` } };
    }
    if (others.length && handler.uniqueFindKey) return { item: { ...base, action: 'conflict', id: others[0].id, changes: [], reason: conflictReason(address, others[0].id) } };
  }
  return { item: { ...base, action: 'create', changes: allNew(resolved, handler) }, resolved };
}

const deletedOutside: FieldChange = { path: '(object)', sensitive: false, replace: false, before: 'exists', after: 'deleted outside converge' };

/** Everything is new: no field forces anything. */
function allNew(resolved: ResolvedSpec, handler: ResourceHandler): FieldChange[] {
  // Each change is a new object: set in place rather than copied (a first apply has one per field of every object).
  const changes = diffSpec(resolved, undefined, undefined, handler);
  for (const c of changes) (c as { replace: boolean }).replace = false;
  return changes;
}

/** What a plan item keeps of an observed object for apply: its plain outputs and its version. */
function seen(observed: Observed): Partial<PlanItem> {
  return {
    ...(observed.outputs && Object.keys(observed.outputs).length ? { outputs: observed.outputs } : {}),
    ...(observed.version !== undefined ? { version: observed.version } : {}),
  };
}

export function classify(base: Base, id: string | undefined, changes: FieldChange[], destroyWarning?: string): PlanItem {
  if (changes.length === 0) return { ...base, id, action: 'noop', changes };
  const forcing = changes.filter((c) => c.replace).map((c) => c.path);
  if (forcing.length) {
    return { ...base, id, action: 'replace', changes, reason: `${forcing.join(', ')} cannot change in place`,
      warnings: destroyWarning ? [destroyWarning] : [] };
  }
  return { ...base, id, action: 'update', changes };
}
