import { DesiredResource, DesiredStack, LOOKUP_PREFIX } from '../model';
import { newSalt } from '../crypto/field-hmac';
import { openSensitiveOutputs } from '../state/record-seal';
import { StateRecord } from '../state/state-model';
import { StateStore } from '../state/state-store';
import { ApiClients } from './api-clients';
import { DeclaredProviders, UndeclaredProviderError } from './declared-providers';
import { ApiSemaphores, assertAcyclic } from './graph';
import { HandlerContext, ResourceHandler, Spec } from './handler';
import { intentCandidates } from './ownership';
import { plainOutputs, readDigest, stableOutputs } from './data-reads';
import { assertOneAddress, identitiesOf } from './identities';
import { MoveSource, ObjectPlanInput, planFromState, plannedFromState, planObject, Planned } from './plan-object';
import { PlanMemo } from './plan-memo';
import { prefetch, prefetchKey, withPrefetched } from './prefetch';
import { PlanItem, READ_DURING_APPLY, StackPlan } from './plan-model';
import { dataSourceHandler, PlanHookItem, registeredPlanHooks, resourceHandler } from './registry';
import { attrValue, isUnknown, resolveSpec, ResolvedSpec, SensitiveValue, topAttr, UNKNOWN } from './resolve-spec';
import { crossStackRefs, otherStack, OtherStacks, stacksReadBy } from './other-stacks';

/** One collator for every comparison: `localeCompare` with options builds one per call (seconds for 100 000 items). */
const ADDRESS_ORDER = new Intl.Collator(undefined, { numeric: true });

export interface PlanOptions {
  /** Objects read at once, per API. @default 10 */
  readonly parallelism?: number;
  /** Read every object (else compare with state only). @default true */
  readonly refresh?: boolean;
  /** Plan the removal of everything in state. */
  readonly destroy?: boolean;
  /** The states of the other stacks this one reads values from, read beforehand (cross-stack references). */
  readonly otherStacks?: OtherStacks;
  /**
   * Addresses of this stack that other stacks read values from: a data source among them whose read
   * differs from state (or has none) is recorded by the apply, so that they read what it read.
   */
  readonly readByOtherStacks?: ReadonlySet<string>;
  /**
   * A plan from state alone: nothing is read from the API, data sources included (each takes what
   * state recorded for it, or is a change when state holds no read of the same declaration). What it
   * finds to do is what the app changed since the last apply. Implies `refresh: false`.
   * @default false
   */
  readonly fromState?: boolean;
  /** Kept by the caller from one plan of the stack to the next (`converge watch`): unchanged objects are not resolved and diffed again. */
  readonly memo?: PlanMemo;
}

/**
 * How many objects are planned at once (their spec resolved, a slot awaited or held): a few times the
 * slots of every API, so that each API's slots stay busy while the rest of a large stack waits unstarted.
 */
const planWindow = (parallelism: number): number => Math.max(64, parallelism * 16);

/**
 * `Promise.all(keys.map(start))`, but with at most `window` started and unsettled at once, started in
 * the order of `keys`: an object waiting for a slot holds its resolved spec, inputs and closures, and
 * starting every object of a large stack at once held them all (hundreds of MB at 100 000 objects).
 * Rejects with the first rejection, and starts nothing more after it.
 */
export function inOrderWindowed<T>(keys: readonly string[], start: (key: string) => Promise<T>, window: number): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) => {
    const out = new Array<T>(keys.length);
    let next = 0;
    let unsettled = keys.length;
    let failed = false;
    const feed = (): void => {
      while (!failed && next < keys.length && next - (keys.length - unsettled) < window) {
        const i = next++;
        let p: Promise<T>;
        try {
          p = start(keys[i]);
        } catch (e) {
          p = Promise.reject(e);
        }
        p.then((v) => {
          out[i] = v;
          if (--unsettled === 0) resolve(out);
          else feed();
        }, (e) => {
          if (!failed) { failed = true; reject(e); }
        });
      }
    };
    if (keys.length === 0) resolve(out);
    else feed();
  });
}

/** Masks secrets for plan hooks: they see shapes and plain values, never a secret. A spec without a secret is given as it is (hooks only read). */
function maskSecrets(spec: Spec | undefined): Spec | undefined {
  if (!spec || !holdsSecret(spec)) return spec;
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

/** Whether a `$secret` is anywhere in `v`. */
function holdsSecret(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some(holdsSecret);
  if ('$secret' in v) return true;
  for (const k in v) if (holdsSecret((v as Record<string, unknown>)[k])) return true;
  return false;
}

/** Actions after which an object's attributes are not known until apply. */
const CHANGING = new Set(['create', 'replace', 'update', 'adopt']);

/** The sensitive outputs of a state record, decrypted (empty when it has none). */
export function sensitiveOutputsOf(rec: StateRecord | undefined): Record<string, unknown> {
  return rec ? openSensitiveOutputs(rec) : {};
}

/**
 * Reads every object of a stack (bounded parallelism, dependencies first so references
 * resolve), diffs field by field and classifies each as create, update, replace, delete,
 * adopt, forget, read, no-op or conflict, with the drift found on the way.
 */
export async function planStack(desired: DesiredStack, state: StateStore, clients: ApiClients, opts: PlanOptions = {}): Promise<StackPlan> {
  // Destroying plans only removals: data sources are not read (their objects may be going too).
  const resources: Record<string, DesiredResource> = opts.destroy ? {} : desired.resources;
  const deps = new Map<string, readonly string[]>();
  for (const [addr, r] of Object.entries(resources)) {
    for (const d of r.dependsOn) {
      if (!resources[d]) throw new Error(`${r.path}: depends on "${d}", which is not a converge construct of stack ${desired.stack}`);
    }
    deps.set(addr, r.dependsOn);
  }
  assertAcyclic(deps);

  const sems = new ApiSemaphores(opts.parallelism ?? 10);
  /** The providers the app declares: objects only in state are reached through these, never through what state says. */
  const declared = new DeclaredProviders(desired);
  const refresh = opts.fromState ? false : opts.refresh ?? true;
  const results = new Map<string, Promise<Planned>>();
  const orphans = Object.entries(state.records).filter(([addr]) => !resources[addr]);
  const orphansByKind = new Map<string, MoveSource[]>();
  for (const [address, record] of orphans) {
    if (record.dataSource || record.status !== 'created' || !record.id) continue;
    orphansByKind.set(record.kind, [...(orphansByKind.get(record.kind) ?? []), { address, record }]);
  }

  /** References as the plan sees them: what it read from the API, unknown where the apply changes it. */
  const lookup = (planned: Map<string, Planned>) => (address: string, attr: string, stack?: string): unknown => {
    if (stack !== undefined) return otherStack(opts.otherStacks, stack, address, attr);
    const p = planned.get(address);
    if (!p) return UNKNOWN;
    if (p.item.dataSource) {
      const v = attrValue(p.outputs, attr);
      if (v === undefined) return UNKNOWN;
      return p.sensitiveOutputs?.includes(topAttr(attr)) ? new SensitiveValue(v, `${address}.${attr}`) : v;
    }
    const v = p.resolved?.value[attr];
    if (v !== undefined && !isUnknown(v)) return p.resolved!.secretPaths.has(attr) ? new SensitiveValue(v, `${address}.${attr}`) : v;
    if (p.item.action === 'create' || p.item.action === 'replace') return UNKNOWN;
    if (p.item.action === 'update' || p.item.action === 'adopt') {
      if (resourceHandler(p.item.kind).outputsChangedByUpdate?.includes(attr)) return UNKNOWN;
    }
    const rec = state.record(p.item.movedFrom ?? address);
    const out = attrValue(p.outputs, attr) ?? attrValue(rec?.outputs, attr);
    if (out !== undefined) return out;
    const secret = attrValue(sensitiveOutputsOf(rec), attr);
    return secret === undefined ? UNKNOWN : new SensitiveValue(secret, `${address}.${attr}`);
  };

  const cache = await prefetch(resources, state, clients, sems, refresh);

  /** The handler of a kind and provider, answering from the prefetched batch: one per batch, not one per object. */
  const handlers = new Map<string, ResourceHandler>();
  const handlerFor = (r: DesiredResource): ResourceHandler => {
    const key = prefetchKey(r);
    let h = handlers.get(key);
    if (!h) handlers.set(key, h = withPrefetched(resourceHandler(r.kind), cache.get(key)));
    return h;
  };

  /** Each provider's client, by the provider object (the objects of an app share theirs): ApiClients keys them by their JSON. */
  const clientsByProvider = new Map<DesiredResource['provider'], ReturnType<ApiClients['for']>>();
  const clientFor = (p: DesiredResource['provider']) => {
    let c = clientsByProvider.get(p);
    if (!c) clientsByProvider.set(p, c = clients.for(p));
    return c;
  };

  /** Plans a data source (its dependencies planned): read now, from state, or during the apply. */
  const planLookup = async (address: string, r: DesiredResource, rec: StateRecord | undefined, resolved: ResolvedSpec, ctx: HandlerContext,
    done: Map<string, Planned>): Promise<Planned> => {
    // A data source that depends on an object this apply creates or changes is read during the apply.
    // So is one that depended on an object this apply removes (a discovery chain on an entry of its chain).
    const removing = rec?.dataSource ? rec.dependsOn.some((d) => !resources[d] && state.record(d) && !state.record(d)!.dataSource) : false;
    const deferred = removing || [...done.values()].some((d) => CHANGING.has(d.item.action) || (d.item.dataSource && !d.outputs));
    const input = deferred ? { ...resolved, hasUnknown: true } : resolved;
    const read = opts.fromState ? dataSourceFromState(address, r, input, rec)
      : await sems.for(r.provider.api).run(() => planDataSource(address, r, input, ctx, rec, opts.readByOtherStacks?.has(address) ?? false));
    return rec && !rec.dataSource ? withPriorRemoved(read, r, rec, await sems.for(rec.provider.api).run(() =>
      planRemoval(address, rec, clients, 'it becomes a lookup', undefined, new Set(), declared))) : read;
  };

  /**
   * Plans one object once its dependencies are planned (`done`). A resource planned from state alone
   * sends nothing: it is planned at once, takes no slot and waits in no queue, so that what it needed
   * on the way is freed at once instead of living until every object of the stack is planned.
   */
  const planAfter = (address: string, r: DesiredResource, done: Map<string, Planned>): Planned | Promise<Planned> => {
    const rec = state.record(address);
    const salt = rec?.dataSource === r.dataSource && rec?.kind === r.kind && rec?.status === 'created' ? rec.salt : newSalt();
    const resolved = opts.memo && !r.dataSource ? opts.memo.resolve(address, r, lookup(done), salt) : resolveSpec(r.spec, r.path, lookup(done), salt);
    const ctx: HandlerContext = { address: r.path, http: clientFor(r.provider) };
    if (r.dataSource) return planLookup(address, r, rec, resolved, ctx, done);
    const input: ObjectPlanInput = { address, r, resolved, rec: rec?.dataSource ? undefined : rec, handler: handlerFor(r), ctx, refresh,
      orphansOfKind: orphansByKind.get(r.kind) ?? [], memo: opts.memo };
    return plannedFromState(input) ? planFromState(input) : sems.for(r.provider.api).run(() => planObject(input));
  };

  const planOne = (address: string): Promise<Planned> => {
    let pr = results.get(address);
    if (!pr) {
      const r = resources[address];
      if (r.dependsOn.length) {
        pr = (async () => {
          const done = new Map<string, Planned>();
          for (const d of r.dependsOn) done.set(d, await planOne(d));
          return planAfter(address, r, done);
        })();
      } else {
        try {
          const p = planAfter(address, r, new Map());
          pr = p instanceof Promise ? p : Promise.resolve(p);
        } catch (e) {
          pr = Promise.reject(e); // as an async plan would: Promise.all below reports it
        }
      }
      results.set(address, pr);
    }
    return pr;
  };

  const planned = await inOrderWindowed(Object.keys(resources), planOne, planWindow(opts.parallelism ?? 10));
  const identities = identitiesOf(planned, resources);
  assertOneAddress(desired.stack, identities);
  const items = planned.map((p) => withStateChanges(p.item, resources[p.item.address], state.record(p.item.address)));

  // Objects in state that the app no longer has: delete, or forget when retained or moved.
  const movedTo = new Map(items.filter((i) => i.movedFrom).map((i) => [i.movedFrom!, i.address]));
  const managedIds = new Set(items.filter((i) => i.id && !['conflict', 'create'].includes(i.action)).map((i) => `${i.kind}|${i.id}`));
  const why = opts.destroy ? 'the stack is destroyed' : 'no longer in the app';
  const settled = await Promise.allSettled(orphans.map(([addr, rec]) => sems.for(rec.provider?.api ?? '').run(() =>
    planRemoval(addr, rec, clients, why, movedTo.get(addr), managedIds, declared))));
  // Records whose provider the app does not declare are reported together; nothing was sent for them.
  const undeclared = settled.flatMap((s) => (s.status === 'rejected' && s.reason instanceof UndeclaredProviderError ? [s.reason.message] : []));
  if (undeclared.length) throw new Error(`stack ${desired.stack}: ${undeclared.length} object(s) in state cannot be reached:\n  ${undeclared.join('\n  ')}`);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  items.push(...settled.map((s) => (s as PromiseFulfilledResult<PlanItem>).value));

  const notes: string[] = [];
  const hooks = registeredPlanHooks();
  if (hooks.length) {
    const byAddress = new Map(planned.map((x) => [x.item.address, x]));
    const hookItems: PlanHookItem[] = items.filter((i) => !i.dataSource).flatMap((i) => hookItemsOf(i, state.record(i.address), byAddress.get(i.address)?.resolved));
    for (const hook of hooks) {
      const res = await hook({ stack: desired.stack, items: hookItems, http: (api) => clients.any(api) });
      if (res.errors.length) throw new Error(`plan of stack ${desired.stack} refused:\n  ${res.errors.join('\n  ')}`);
      notes.push(...res.notes);
    }
  }
  items.sort((a, b) => ADDRESS_ORDER.compare(a.address, b.address));
  const read = opts.otherStacks && !opts.destroy ? stacksReadBy(desired) : [];
  return { stack: desired.stack, lineage: state.lineage, serial: state.serial, items, notes, desired, identities,
    ...(read.length ? { otherStacks: opts.otherStacks!.snapshots(read) } : {}) };
}

/** What a plan hook sees of an item; a kind change is the old kind's delete and the new kind's create. */
function hookItemsOf(i: PlanItem, rec: StateRecord | undefined, resolved: ResolvedSpec | undefined): PlanHookItem[] {
  const gone = ['delete', 'forget'].includes(i.action);
  const after = () => (gone || i.action === 'conflict' ? undefined : maskSecrets(resolved?.stored));
  const before = () => maskSecrets(rec?.spec);
  if (i.priorKind) {
    return [
      masked({ address: i.address, kind: i.priorKind, action: 'delete' }, { before }),
      masked({ address: i.address, kind: i.kind, action: 'create' }, { after }),
    ];
  }
  return [masked({ address: i.address, kind: i.kind, action: i.action === 'conflict' ? 'noop' : i.action }, { before, after })];
}

/**
 * A hook item whose specs are masked when a hook first reads them: hooks look at their domain's kinds
 * only, and masking every object of a large plan for them cost more than the rest of its diff.
 */
function masked(item: Omit<PlanHookItem, 'before' | 'after'>, specs: { before?: () => Spec | undefined; after?: () => Spec | undefined }): PlanHookItem {
  for (const [field, compute] of Object.entries(specs)) {
    let value: { spec: Spec | undefined } | undefined;
    Object.defineProperty(item, field, {
      enumerable: true,
      get: () => (value ??= { spec: compute() }).spec,
    });
  }
  return item as PlanHookItem;
}

/** Changes of what state keeps that need no API call: shown in the plan and recorded by apply. */
function withStateChanges(item: PlanItem, r: DesiredResource, rec: StateRecord | undefined): PlanItem {
  const deposed = rec?.deposed?.length ? { deposed: rec.deposed } : {};
  if (item.action !== 'noop' || !rec || item.movedFrom) return { ...item, ...deposed };
  const changes: string[] = [];
  if (rec.removalPolicy !== r.removalPolicy) changes.push(`removal policy ${rec.removalPolicy} -> ${r.removalPolicy}`);
  if (!sameList(rec.dependsOn, r.dependsOn, true)) changes.push('dependencies');
  if (!sameList(rec.stackRefs ?? [], crossStackRefs(r.spec), false)) changes.push('references to other stacks');
  // Compared field by field: a JSON store (PostgreSQL jsonb) does not keep key order.
  if (!sameProvider(rec.provider, r.provider)) changes.push('provider');
  if ((rec.path ?? '') !== r.path) changes.push('construct path');
  return changes.length || deposed.deposed ? { ...item, ...deposed, stateChanges: changes } : item;
}

/** Whether a record's provider is the app's: its API, address and variables, as the text `api|address|addressEnv|tokenEnv`. */
function sameProvider(a: DesiredResource['provider'], b: DesiredResource['provider']): boolean {
  const x = [joinText(a.api), joinText(a.address), joinText(a.addressEnv), joinText(a.tokenEnv)];
  const y = [joinText(b.api), joinText(b.address), joinText(b.addressEnv), joinText(b.tokenEnv)];
  // Field by field, unless a field holds the separator (then the joined texts, as they always were compared).
  if (x.some((v) => v.includes('|')) || y.some((v) => v.includes('|'))) return x.join('|') === y.join('|');
  return x[0] === y[0] && x[1] === y[1] && x[2] === y[2] && x[3] === y[3];
}

/** A value as `Array.prototype.join` writes it. */
const joinText = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** Whether two lists are the same as JSON (in any order with `anyOrder`); two empty lists need no copy. */
function sameList(a: readonly unknown[], b: readonly unknown[], anyOrder: boolean): boolean {
  if (a.length !== b.length) return false;
  if (a.length === 0) return true;
  return anyOrder ? JSON.stringify([...a].sort()) === JSON.stringify([...b].sort()) : JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Why credentials are issued, and what becomes of those they replace: the lease state holds is revoked by
 * the apply once every object that uses the credentials holds the new ones.
 */
function issueReason(handler: ReturnType<typeof dataSourceHandler>, rec: StateRecord | undefined, kind: string, sameArguments: boolean): string {
  const prior = rec?.dataSource && rec.kind === kind && rec.status === 'created' ? handler.leaseOf!({ ...rec.outputs, ...sensitiveOutputsOf(rec) }) : undefined;
  if (!prior || !rec?.outputs.leaseId) return 'issued during apply, then kept in state while its lease lasts';
  const why = sameArguments ? `its lease nears its end (${new Date(prior.expiresAt).toISOString()})` : 'what it reads changed';
  return `new credentials are issued during apply: ${why}; the lease ${String(rec.outputs.leaseId)} they replace is revoked once the objects that use them hold the new ones`;
}

async function planDataSource(address: string, r: DesiredResource, resolved: ResolvedSpec, ctx: HandlerContext, rec: StateRecord | undefined,
  readByOthers: boolean): Promise<Planned> {
  const handler = dataSourceHandler(r.kind);
  const item: PlanItem = { address, kind: r.kind, action: 'read', changes: [], drift: [], warnings: [], dataSource: true };
  if (resolved.hasUnknown) {
    const replaced = handler.leaseOf && rec?.dataSource && rec.kind === r.kind && rec.status === 'created' && rec.outputs.leaseId;
    return { item: { ...item, reason: replaced ? `${READ_DURING_APPLY}; the lease ${String(replaced)} it holds now is revoked once the objects that use the new credentials hold them` : READ_DURING_APPLY }, resolved };
  }
  const kept = handler.leaseOf && rec?.dataSource && rec.kind === r.kind && rec.status === 'created' &&
    sameJson(rec.spec, resolved.stored) ? { ...rec.outputs, ...sensitiveOutputsOf(rec) } : undefined;
  const lease = kept && handler.leaseOf!(kept);
  if (kept && lease && stillFresh(lease) && handler.leaseAlive && !(await handler.leaseAlive(ctx, kept))) {
    // One lookup: a lease revoked outside converge (or lost by the service) leaves credentials that no longer work.
    return { item: { ...item, issues: true, reason: `its lease ${String(kept.leaseId)} was revoked outside converge: new credentials are issued during apply` }, resolved };
  }
  if (kept && lease && stillFresh(lease)) {
    // Nothing to do: apply keeps the record (reading again would issue new credentials).
    return { item: { ...item, action: 'noop', reason: `kept from state: its lease runs until ${new Date(lease.expiresAt).toISOString()}` }, resolved, outputs: kept,
      sensitiveOutputs: handler.sensitiveOutputs ?? [] };
  }
  // Credentials the service issues on each read (a check-out is even a write): issued once, by apply, which keeps them in state.
  // A kept token without a lease (the service answers the same one until it is rotated) is read again, at plan time.
  if (handler.leaseOf && !(kept && !lease)) return { item: { ...item, issues: true, reason: issueReason(handler, rec, r.kind, kept !== undefined) }, resolved };
  const outputs = await handler.read(ctx, resolved.value);
  // Other stacks read it from state: a read that state does not hold yet is a change to record.
  const recorded = rec?.dataSource && rec.kind === r.kind && rec.status === 'created' &&
    sameJson(stableOutputs(handler, { ...rec.outputs, ...sensitiveOutputsOf(rec) }), stableOutputs(handler, outputs));
  const record = readByOthers && !recorded ? { reason: 'other stacks read it: what it read is recorded in state', stateChanges: ['outputs read by other stacks'] } : {};
  const sensitive = handler.sensitiveOutputs ?? [];
  // Kept in the plan (plain outputs and a digest of all): apply uses this read, or refuses the plan as stale.
  const read = { outputs: plainOutputs(outputs, sensitive), readDigest: readDigest(handler, outputs) };
  return { item: { ...item, ...record, ...read }, resolved, outputs, sensitiveOutputs: sensitive };
}

/** A data source in a plan from state: what state recorded for the same declaration (a no-op), else a read (a change of the app). */
function dataSourceFromState(address: string, r: DesiredResource, resolved: ResolvedSpec, rec: StateRecord | undefined): Planned {
  const item: PlanItem = { address, kind: r.kind, action: 'read', changes: [], drift: [], warnings: [], dataSource: true };
  const same = !resolved.hasUnknown && rec?.dataSource && rec.kind === r.kind && rec.status === 'created' && sameJson(rec.spec, resolved.stored);
  if (!same) return { item: { ...item, reason: 'not read with this declaration by the last apply' }, resolved };
  const sensitive = dataSourceHandler(r.kind).sensitiveOutputs ?? [];
  return { item: { ...item, action: 'noop', reason: 'as the last apply read it' }, resolved, outputs: { ...rec.outputs, ...sensitiveOutputsOf(rec) }, sensitiveOutputs: sensitive };
}

/**
 * An object whose construct is gone: deleted (only what converge created or imported), or
 * forgotten when retained, moved to another address, or managed by another address already.
 */
async function planRemoval(address: string, rec: StateRecord, clients: ApiClients, why: string,
  movedTo: string | undefined, managedIds: Set<string>, declared: DeclaredProviders): Promise<PlanItem> {
  const base = { address, kind: rec.kind, id: rec.id, changes: [], drift: [], warnings: [] as string[] };
  if (rec.dataSource) {
    // Credentials converge issued and holds: their lease is revoked (a database user dropped, an account checked in).
    const note = rec.status === 'created' ? dataSourceHandler(rec.kind).releaseNote?.(rec.outputs) : undefined;
    return { ...base, action: note ? 'delete' : 'forget', reason: note ? `data source removed: ${note}` : 'data source removed', dataSource: true };
  }
  if (movedTo) return { ...base, action: 'forget', reason: `moved to ${movedTo}`, movedTo };
  if (rec.id && managedIds.has(`${rec.kind}|${rec.id}`)) return { ...base, action: 'forget', reason: 'the object is managed at another address' };
  if (rec.removalPolicy === 'retain') return { ...base, action: 'forget', reason: 'removal policy retain: the object stays on the API' };
  const handler = resourceHandler(rec.kind);
  // Reached through the app's provider only (reported when it declares none): the apply deletes through it.
  const provider = declared.forRecord(address, rec);
  let id = rec.id;
  if (!id && rec.status === 'creating' && handler.find) {
    // A create interrupted before its identity was recorded: delete what it made (and only that).
    const ctx: HandlerContext = { address: rec.path ?? address, http: clients.for(provider) };
    const { ours } = await intentCandidates(handler, ctx, rec.spec, rec);
    if (ours.length !== 1) {
      return { ...base, action: 'forget', reason: ours.length ? `a create that was interrupted may have made any of ${ours.map((c) => c.id).join(', ')}: not deleting; check them by hand`
        : 'a create that was interrupted made nothing' };
    }
    id = ours[0].id;
  }
  return { ...base, id, action: 'delete', reason: why, warnings: handler.destroyWarning ? [handler.destroyWarning] : [] };
}

/**
 * A resource that became a data source at the same address leaves the app as any resource does
 * (deleted or forgotten by its removal policy), shown with the data source's read. Deleting the very
 * object the lookup reads is refused, with the remedy.
 */
function withPriorRemoved(read: Planned, r: DesiredResource, rec: StateRecord, removal: PlanItem): Planned {
  if (removal.action === 'delete') {
    const given = read.outputs?.id ?? r.spec.id;
    if (r.kind === LOOKUP_PREFIX + rec.kind && given !== undefined && String(given) === rec.id) {
      throw new Error(`${r.path}: the ${rec.kind} converge manages at this address (${rec.id}) would be destroyed (removal policy ${rec.removalPolicy}) ` +
        `while the lookup reads it: set removalPolicy retain on it and apply, then make it a lookup (or forget it first: converge state rm ${read.item.address})`);
    }
  }
  const reason = removal.action === 'delete' ? 'it becomes a lookup' : `it becomes a lookup; ${removal.reason}`;
  const removesPrior = { action: removal.action as 'delete' | 'forget', kind: rec.kind, ...(removal.id ? { id: removal.id } : {}), reason, warnings: removal.warnings };
  return { ...read, item: { ...read.item, removesPrior } };
}

/** Equal as JSON whatever the key order (a JSON store such as PostgreSQL jsonb does not keep it). */
export function sameJson(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): unknown => (Array.isArray(v) ? v.map(canon) : v !== null && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])])) : v);
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

/** A lease with more than a third of its time left (as a secrets agent renews): credentials in use are not replaced too late. */
function stillFresh(lease: { issuedAt: number; expiresAt: number }): boolean {
  const now = Date.now();
  return lease.expiresAt - now > (lease.expiresAt - lease.issuedAt) / 3;
}
