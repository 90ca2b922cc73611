import { DesiredResource, DesiredStack } from '../model';
import { StateRecord } from '../state/state-model';
import { StateStore } from '../state/state-store';
import { ApiClients } from './api-clients';
import { diffAgainstPrior, diffSpec, driftOf } from './diff';
import { ApiSemaphores, assertAcyclic } from './graph';
import { ApiError } from '../http/api-error';
import { FieldChange, HandlerContext, Observed, ResourceHandler, Spec } from './handler';
import { PlanItem, StackPlan } from './plan-model';
import { dataSourceHandler, PlanHookItem, registeredPlanHooks, resourceHandler } from './registry';
import { isUnknown, resolveSpec, ResolvedSpec, UNKNOWN } from './resolve-spec';

export interface PlanOptions {
  /** Objects read at once, per API. @default 10 */
  readonly parallelism?: number;
  /** Read every object (else compare with state only). @default true */
  readonly refresh?: boolean;
  /** Plan the removal of everything in state. */
  readonly destroy?: boolean;
}

/** What planning one object found, kept for references and for apply. */
interface Planned {
  readonly item: PlanItem;
  readonly resolved?: ResolvedSpec;
  readonly outputs?: Record<string, unknown>;
}

/** Masks secrets for plan hooks: they see shapes and plain values, never a secret. */
function maskSecrets(spec: Spec | undefined): Spec | undefined {
  if (!spec) return undefined;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      if ('$secret' in v) return '(sensitive)';
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(spec) as Spec;
}

/**
 * Reads every object of a stack (bounded parallelism, dependencies first so references
 * resolve), diffs field by field and classifies each as create, update, replace, delete,
 * adopt, forget, read or no-op, with the drift found on the way.
 */
export async function planStack(desired: DesiredStack, state: StateStore, clients: ApiClients, opts: PlanOptions = {}): Promise<StackPlan> {
  const resources: Record<string, DesiredResource> = opts.destroy
    ? Object.fromEntries(Object.entries(desired.resources).filter(([, r]) => r.dataSource))
    : desired.resources;
  const deps = new Map<string, readonly string[]>();
  for (const [addr, r] of Object.entries(resources)) {
    for (const d of r.dependsOn) {
      if (!resources[d]) throw new Error(`${r.path}: depends on "${d}", which is not a converge construct of stack ${desired.stack}`);
    }
    deps.set(addr, r.dependsOn);
  }
  assertAcyclic(deps);

  const sems = new ApiSemaphores(opts.parallelism ?? 10);
  const refresh = opts.refresh ?? true;
  const results = new Map<string, Promise<Planned>>();

  const lookup = (planned: Map<string, Planned>) => (address: string, attr: string): unknown => {
    const p = planned.get(address);
    if (!p) return UNKNOWN;
    if (p.item.dataSource) return p.outputs?.[attr] ?? UNKNOWN;
    const v = p.resolved?.value[attr];
    if (v !== undefined && !isUnknown(v)) return v;
    if (p.item.action === 'create' || p.item.action === 'replace') return UNKNOWN;
    return p.outputs?.[attr] ?? state.record(address)?.outputs[attr] ?? UNKNOWN;
  };

  const planOne = (address: string): Promise<Planned> => {
    let pr = results.get(address);
    if (!pr) {
      pr = (async () => {
        const r = resources[address];
        const done = new Map<string, Planned>();
        for (const d of r.dependsOn) done.set(d, await planOne(d));
        const resolved = resolveSpec(r.spec, r.path, lookup(done));
        // A data source that depends on an object this apply creates is read during the apply.
        const deferred = [...done.values()].some((d) => ['create', 'replace'].includes(d.item.action) || (d.item.dataSource && !d.outputs));
        return sems.for(r.provider.api).run(() => (r.dataSource
          ? planDataSource(address, r, deferred ? { ...resolved, hasUnknown: true } : resolved, clients)
          : planResource(address, r, resolved, state.record(address), clients, refresh)));
      })();
      results.set(address, pr);
    }
    return pr;
  };

  const planned = await Promise.all(Object.keys(resources).map(planOne));
  const items = planned.map((p) => p.item);

  // Objects in state that the app no longer has: delete, or forget when retained.
  const orphans = Object.entries(state.records).filter(([addr]) => !resources[addr]);
  const why = opts.destroy ? 'the stack is destroyed' : 'no longer in the app';
  const orphanItems = await Promise.all(orphans.map(([addr, rec]) => sems.for(rec.provider.api).run(() => planRemoval(addr, rec, clients, refresh, why))));
  // An orphan whose object a new address adopts has moved: forget it instead of deleting what was adopted.
  const adopted = new Map(items.filter((x) => x.action === 'adopt').map((x) => [`${x.kind}|${x.id}`, x]));
  for (let i = 0; i < orphanItems.length; i++) {
    const o = orphanItems[i];
    const heir = adopted.get(`${o.kind}|${o.id}`);
    if (o.action === 'delete' && heir) orphanItems[i] = { ...o, action: 'forget', reason: `moved to ${heir.address}`, warnings: [] };
  }
  items.push(...orphanItems);

  const notes: string[] = [];
  const hooks = registeredPlanHooks();
  if (hooks.length) {
    const byAddress = new Map(planned.map((x) => [x.item.address, x]));
    const hookItems: PlanHookItem[] = items.filter((i) => !i.dataSource).map((i) => {
      const rec = state.record(i.address);
      const p = byAddress.get(i.address);
      const gone = ['delete', 'forget'].includes(i.action);
      return { address: i.address, kind: i.kind, action: i.action, before: maskSecrets(rec?.spec), after: gone ? undefined : maskSecrets(p?.resolved?.stored) };
    });
    for (const hook of hooks) {
      const res = await hook({ stack: desired.stack, items: hookItems, http: (api) => clients.any(api) });
      if (res.errors.length) throw new Error(`plan of stack ${desired.stack} refused:\n  ${res.errors.join('\n  ')}`);
      notes.push(...res.notes);
    }
  }
  items.sort((a, b) => a.address.localeCompare(b.address));
  return { stack: desired.stack, lineage: state.lineage, serial: state.serial, items, notes, desired };
}

async function planDataSource(address: string, r: DesiredResource, resolved: ResolvedSpec, clients: ApiClients): Promise<Planned> {
  const handler = dataSourceHandler(r.kind);
  const item: PlanItem = { address, kind: r.kind, action: 'read', changes: [], drift: [], warnings: [], dataSource: true };
  if (resolved.hasUnknown) return { item: { ...item, reason: 'read during apply: it depends on objects not created yet' }, resolved };
  const outputs = await handler.read({ address: r.path, http: clients.for(r.provider) }, resolved.value);
  return { item, resolved, outputs };
}

async function planResource(address: string, r: DesiredResource, resolved: ResolvedSpec, rec: StateRecord | undefined,
  clients: ApiClients, refresh: boolean): Promise<Planned> {
  const handler = resourceHandler(r.kind);
  const base = { address, kind: r.kind, drift: [] as FieldChange[], warnings: [] as string[] };
  const ctx: HandlerContext = { address: r.path, http: clients.for(r.provider) };

  if (rec?.status === 'created' && !refresh) {
    const changes = diffAgainstPrior(resolved, rec, handler);
    return { item: classify(base, rec.id, changes, handler.destroyWarning), resolved, outputs: rec.outputs };
  }

  // The identity: from state, else (new object, or a create interrupted by a crash) the natural key.
  let id = rec?.status === 'created' ? rec.id : rec?.id;
  if (!id && !resolved.hasUnknown) {
    id = handler.naturalId(resolved.value) ?? (handler.find ? await findOrNone(handler, ctx, resolved.value) : undefined);
  }
  let observed: Observed | undefined;
  if (id) observed = await handler.read(ctx, id, resolved.value);

  if (!observed) {
    // Everything is new: no field forces anything.
    const changes = diffSpec(resolved, undefined, undefined, handler).map((c) => ({ ...c, replace: false }));
    const drift: FieldChange[] = rec?.status === 'created'
      ? [{ path: '(object)', sensitive: false, replace: false, before: 'exists', after: 'deleted outside converge' }] : [];
    return { item: { ...base, drift, action: 'create', changes }, resolved };
  }
  const prior = rec?.status === 'created' ? rec : undefined;
  const changes = diffSpec(resolved, observed.fields, prior, handler);
  const drift = prior ? driftOf(observed.fields, prior, handler) : [];
  if (!prior) {
    // Exists on the API but not (fully) in state: adopt it rather than create a duplicate.
    return { item: { ...base, action: 'adopt', id, changes, reason: 'exists on the API: adopted by its natural key' }, resolved, outputs: observed.outputs };
  }
  return { item: { ...classify(base, id, changes, handler.destroyWarning), drift }, resolved, outputs: observed.outputs };
}

/** A search that meets a 404 (its parent does not exist yet) found nothing. */
async function findOrNone(handler: ResourceHandler, ctx: HandlerContext, spec: Spec): Promise<string | undefined> {
  try {
    return await handler.find!(ctx, spec);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}

function classify(base: { address: string; kind: string; drift: FieldChange[]; warnings: string[] }, id: string | undefined,
  changes: FieldChange[], destroyWarning?: string): PlanItem {
  if (changes.length === 0) return { ...base, id, action: 'noop', changes };
  const forcing = changes.filter((c) => c.replace).map((c) => c.path);
  if (forcing.length) {
    return { ...base, id, action: 'replace', changes, reason: `${forcing.join(', ')} cannot change in place`,
      warnings: destroyWarning ? [destroyWarning] : [] };
  }
  return { ...base, id, action: 'update', changes };
}

async function planRemoval(address: string, rec: StateRecord, clients: ApiClients, refresh: boolean, why: string): Promise<PlanItem> {
  const base = { address, kind: rec.kind, id: rec.id, changes: [] as FieldChange[], drift: [] as FieldChange[], warnings: [] as string[] };
  if (rec.dataSource) return { ...base, action: 'forget', reason: 'data source removed', dataSource: true };
  if (rec.removalPolicy === 'retain') return { ...base, action: 'forget', reason: 'removal policy retain: the object stays on the API' };
  const handler = resourceHandler(rec.kind);
  const ctx: HandlerContext = { address: rec.path ?? address, http: clients.for(rec.provider) };
  let id = rec.id;
  if (!id && rec.status === 'creating') {
    // A create interrupted before its identity was recorded: find what it may have made, so that it is not orphaned.
    id = handler.naturalId(rec.spec) ?? (handler.find ? await findOrNone(handler, ctx, rec.spec) : undefined);
  }
  let reason = why;
  if (refresh && id) {
    const observed = await handler.read(ctx, id);
    if (!observed) reason = `${why}; already deleted outside converge`;
  }
  return { ...base, id, action: 'delete', reason, warnings: handler.destroyWarning ? [handler.destroyWarning] : [] };
}
