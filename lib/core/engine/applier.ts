import { DesiredResource } from '../model';
import { decrypt, encrypt } from '../secrets/state-key';
import { StateRecord } from '../state/state-model';
import { StateStore } from '../state/state-store';
import { ApiClients } from './api-clients';
import { ApiSemaphores } from './graph';
import { HandlerContext, Written } from './handler';
import { PlanItem, StackPlan } from './plan-model';
import { dataSourceHandler, resourceHandler } from './registry';
import { createSafely, isAmbiguous, reconcile } from './recovery';
import { isUnknown, resolveSpec, UNKNOWN } from './resolve-spec';

export interface ApplyOptions {
  /** Operations in flight at once against each API. @default 10 */
  readonly parallelism?: number;
  readonly onEvent?: (e: ApplyEvent) => void;
  /** When aborted (SIGINT, SIGTERM), operations not yet started are skipped ('interrupted'); those in flight finish. */
  readonly signal?: AbortSignal;
}

/** Progress of one operation. */
export interface ApplyEvent {
  readonly address: string;
  readonly action: string;
  readonly phase: 'start' | 'done' | 'failed' | 'skipped';
  /** The error message (never a secret: API errors carry no request body). */
  readonly error?: string;
  readonly ms?: number;
}

export interface ApplyResult {
  readonly done: { address: string; action: string }[];
  readonly failed: { address: string; action: string; error: string }[];
  readonly skipped: { address: string; action: string; because: string }[];
}

const FORWARD = new Set(['create', 'update', 'replace', 'adopt', 'read', 'noop']);

/**
 * Executes a plan: removals first (dependents before what they depend on), then the rest in
 * dependency order, at most `parallelism` at once. State is written after every operation and
 * an intent before every create. When an operation fails, what depends on it is skipped and
 * independent branches go on.
 */
export async function applyPlan(plan: StackPlan, state: StateStore, clients: ApiClients, opts: ApplyOptions = {}): Promise<ApplyResult> {
  const sems = new ApiSemaphores(opts.parallelism ?? 10);
  const emit = opts.onEvent ?? (() => undefined);
  const result: ApplyResult = { done: [], failed: [], skipped: [] };
  const outcome = new Map<string, Promise<boolean>>();
  const items = new Map(plan.items.map((i) => [i.address, i]));
  const desired = plan.desired.resources;

  const removals = plan.items.filter((i) => i.action === 'delete' || i.action === 'forget');
  // For each object to remove, the objects to remove first (those whose state says they depend on it).
  const removedFirst = new Map<string, string[]>();
  for (const o of removals) {
    for (const dep of state.record(o.address)?.dependsOn ?? []) removedFirst.set(dep, [...(removedFirst.get(dep) ?? []), o.address]);
  }
  const removalOf = (address: string): Promise<boolean> => {
    let p = outcome.get(address);
    if (p) return p;
    p = (async () => {
      const item = items.get(address)!;
      // Whatever still depends on this object goes first.
      const dependents = removedFirst.get(address) ?? [];
      const ok = (await Promise.all(dependents.map((d) => removalOf(d)))).every(Boolean);
      if (!ok) return skip(item, 'an object that depends on it was not removed');
      return sems.for(state.record(address)?.provider.api ?? '').run(() => run(item, () => remove(item)));
    })();
    outcome.set(address, p);
    return p;
  };

  const skip = (item: PlanItem, because: string): false => {
    result.skipped.push({ address: item.address, action: item.action, because });
    emit({ address: item.address, action: item.action, phase: 'skipped', error: because });
    return false;
  };

  const run = async (item: PlanItem, op: () => Promise<void>): Promise<boolean> => {
    if (opts.signal?.aborted) return skip(item, 'interrupted');
    const quiet = item.action === 'noop';
    const t0 = Date.now();
    if (!quiet) emit({ address: item.address, action: item.action, phase: 'start' });
    try {
      await op();
      if (!quiet) {
        result.done.push({ address: item.address, action: item.action });
        emit({ address: item.address, action: item.action, phase: 'done', ms: Date.now() - t0 });
      }
      return true;
    } catch (e) {
      const error = (e as Error).message;
      result.failed.push({ address: item.address, action: item.action, error });
      emit({ address: item.address, action: item.action, phase: 'failed', error, ms: Date.now() - t0 });
      return false;
    }
  };

  const remove = async (item: PlanItem): Promise<void> => {
    const rec = state.record(item.address);
    if (!rec) return;
    const id = rec.id || item.id;
    if (item.action === 'delete' && id) {
      const handler = resourceHandler(rec.kind);
      await handler.delete({ address: rec.path ?? item.address, http: clients.for(rec.provider) }, id,
        { id, spec: rec.spec, outputs: rec.outputs });
    }
    await state.put(item.address, undefined);
  };

  const lookup = (address: string, attr: string): unknown => {
    const rec = state.record(address);
    if (!rec || rec.status !== 'created') return UNKNOWN;
    if (attr in rec.outputs) return rec.outputs[attr];
    if (rec.sensitiveOutputs) {
      const s = JSON.parse(decrypt(rec.sensitiveOutputs)) as Record<string, unknown>;
      if (attr in s) return s[attr];
    }
    const v = rec.spec[attr];
    return v === undefined ? UNKNOWN : v;
  };

  const forwardOf = (address: string): Promise<boolean> => {
    let p = outcome.get(address);
    if (p) return p;
    p = (async () => {
      const item = items.get(address)!;
      const r = desired[address];
      const depsOk = (await Promise.all(r.dependsOn.map((d) => (items.has(d) ? forwardOf(d) : Promise.resolve(true))))).every(Boolean);
      if (!depsOk) return skip(item, 'a dependency failed');
      if (item.action === 'noop') return true;
      return sems.for(r.provider.api).run(() => run(item, () => converge(item, r)));
    })();
    outcome.set(address, p);
    return p;
  };

  const converge = async (item: PlanItem, r: DesiredResource): Promise<void> => {
    const resolved = resolveSpec(r.spec, r.path, lookup);
    if (resolved.hasUnknown) throw new Error(`${r.path}: a referenced value is still unknown`);
    for (const v of Object.values(resolved.value)) if (isUnknown(v)) throw new Error(`${r.path}: unresolved reference`);
    const ctx: HandlerContext = { address: r.path, http: clients.for(r.provider) };
    const record = (w: Written, status: 'created' | 'creating' = 'created'): StateRecord => ({
      kind: r.kind, status, id: w.id, spec: resolved.stored, hmacs: resolved.hmacs, outputs: w.outputs ?? {},
      ...(w.sensitiveOutputs && Object.keys(w.sensitiveOutputs).length ? { sensitiveOutputs: encrypt(JSON.stringify(w.sensitiveOutputs)) } : {}),
      dependsOn: r.dependsOn, removalPolicy: r.removalPolicy, provider: r.provider, path: r.path,
      ...(r.dataSource ? { dataSource: true } : {}),
    });

    if (item.action === 'read') {
      const h = dataSourceHandler(r.kind);
      const out = await h.read(ctx, resolved.value);
      const sensitive = new Set(h.sensitiveOutputs ?? []);
      const plain = Object.fromEntries(Object.entries(out).filter(([k]) => !sensitive.has(k)));
      const secret = Object.fromEntries(Object.entries(out).filter(([k]) => sensitive.has(k)));
      await state.put(item.address, record({ id: item.address, outputs: plain, sensitiveOutputs: secret }));
      return;
    }
    const handler = resourceHandler(r.kind);
    const prior = state.record(item.address);
    const create = async (): Promise<void> => {
      // The intent: if converge dies between the create and the record, the next run adopts by natural key.
      const naturalId = handler.naturalId(resolved.value);
      await state.put(item.address, record({ id: naturalId ?? '', outputs: {} }, 'creating'));
      const w = await createSafely(handler, ctx, resolved);
      await state.put(item.address, record(w));
    };
    switch (item.action) {
      case 'create':
        await create();
        return;
      case 'replace':
        if (prior?.id) await handler.delete(ctx, prior.id, { id: prior.id, spec: prior.spec, outputs: prior.outputs });
        await create();
        return;
      case 'update':
      case 'adopt': {
        const id = item.id ?? prior?.id;
        if (!id) throw new Error(`${r.path}: no identity to update`);
        const known = prior?.status === 'created' ? prior : undefined;
        let w: Written | undefined;
        if (item.changes.length) {
          try {
            w = await handler.update(ctx, id, resolved.value, item.changes, { id, spec: prior?.spec ?? {}, outputs: prior?.outputs ?? {} });
          } catch (e) {
            if (!isAmbiguous(e)) throw e;
          }
        }
        if (!w) {
          // Nothing to write (adoption), or an ambiguous failure: read what is there and converge from it.
          const observed = await handler.read(ctx, id, resolved.value);
          if (!observed) throw new Error(`${r.path}: the object ${id} disappeared while being ${item.action === 'adopt' ? 'adopted' : 'updated'}`);
          w = await reconcile(handler, ctx, id, observed, resolved, known);
        }
        await state.put(item.address, record({ ...w, outputs: { ...(prior?.outputs ?? {}), ...(w.outputs ?? {}) } }));
        return;
      }
    }
  };

  const removalOk = await Promise.all(removals.map((i) => removalOf(i.address)));
  void removalOk;
  await Promise.all(plan.items.filter((i) => FORWARD.has(i.action)).map((i) => forwardOf(i.address)));
  await state.flush();
  return result;
}
