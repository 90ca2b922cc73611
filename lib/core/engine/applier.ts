import { DesiredResource } from '../model';
import { newSalt } from '../crypto/field-hmac';
import { encrypt } from '../crypto/state-key';
import { StateRecord } from '../state/state-model';
import { StateStore } from '../state/state-store';
import { ApiClients } from './api-clients';
import { DeclaredProviders } from './declared-providers';
import { applyOrder, FORWARD, REMOVAL } from './apply-order';
import { topKey } from './diff';
import { ApiSemaphores } from './graph';
import { HandlerContext, IncompleteCreate, ResourceHandler, Written } from './handler';
import { PlanItem, StackPlan } from './plan-model';
import { readDifference } from './data-reads';
import { crossStackRefs, otherStack, OtherStacks } from './other-stacks';
import { sensitiveOutputsOf } from './planner';
import { dataSourceHandler, resourceHandler } from './registry';
import { createSafely, isAmbiguous, reconcile, withRetryBudget } from './recovery';
import { attrValue, ResolvedSpec, resolveSpec, SensitiveValue, UNKNOWN } from './resolve-spec';

/**
 * What an operation leaves: its last state write still in flight, a note for its done line, or nothing.
 * The write is boxed: a promise returned by an async function is awaited by it, which would hold the slot.
 */
type Outcome = { readonly recorded: Promise<void> } | string | undefined | void;
const INTERRUPTED = Symbol('interrupted');

export interface ApplyOptions {
  /** Operations in flight at once against each API. @default 10 */
  readonly parallelism?: number;
  readonly onEvent?: (e: ApplyEvent) => void;
  /** When aborted (SIGINT, SIGTERM), no new operation starts; those in flight finish. */
  readonly signal?: AbortSignal;
  /** The states of the other stacks this one reads values from, read beforehand (cross-stack references). */
  readonly otherStacks?: OtherStacks;
}

/** Progress of one operation. */
export interface ApplyEvent {
  readonly address: string;
  readonly action: string;
  /** `note`: something done after the operation, said on a line of its own (a lease it replaced, revoked). */
  readonly phase: 'start' | 'done' | 'failed' | 'skipped' | 'note';
  /** The error message (never a secret: API errors carry no request body). */
  readonly error?: string;
  readonly ms?: number;
  /** What a done operation did beyond its action, in words (a lease revoked). */
  readonly note?: string;
}

export interface ApplyResult {
  readonly done: { address: string; action: string }[];
  readonly failed: { address: string; action: string; error: string }[];
  readonly skipped: { address: string; action: string; because: string }[];
}

/**
 * Executes a plan in the order of `applyOrder`, at most `parallelism` operations at once per
 * API, with the values the plan saw: writes name the version the plan read, and references to
 * objects this apply does not change resolve to what the plan read. State is written after every
 * operation and an intent before every create. When an operation fails, what must follow it is
 * skipped and independent branches go on.
 */
export async function applyPlan(plan: StackPlan, state: StateStore, clients: ApiClients, opts: ApplyOptions = {}): Promise<ApplyResult> {
  if (plan.items.some((i) => i.action === 'conflict')) {
    throw new Error(`stack ${plan.stack}: the plan found objects converge does not manage under the identity of a construct; nothing was applied`);
  }
  const sems = new ApiSemaphores(opts.parallelism ?? 10);
  const emit = opts.onEvent ?? (() => undefined);
  const result: ApplyResult = { done: [], failed: [], skipped: [] };
  const outcome = new Map<string, Promise<boolean>>();
  const items = new Map(plan.items.map((i) => [i.address, i]));
  const desired = plan.desired.resources;
  /** Objects that exist only in state are reached through the app's providers, never one read from state. */
  const declared = new DeclaredProviders(plan.desired);
  const order = applyOrder(plan, state);
  /** Addresses whose state this apply has rewritten: references to them read state, others the plan. */
  const applied = new Set<string>();
  /**
   * Credentials issued anew by this apply: the revocation of the lease each replaced, under way once
   * their consumers hold the new ones (see revokeSuperseded), and what that record depended on.
   */
  const revocations: { dependsOn: readonly string[]; done: Promise<void> }[] = [];

  const skip = (item: PlanItem, because: string): false => {
    // An object that is up to date has no operation to skip (nor to count: progress counts operations).
    if (item.action === 'noop') return false;
    result.skipped.push({ address: item.address, action: item.action, because });
    emit({ address: item.address, action: item.action, phase: 'skipped', error: because });
    return false;
  };

  /**
   * Runs `op` in a slot of its API. An operation may leave its last state write in flight (`op`'s
   * result): the slot goes to the next operation meanwhile, and this one counts as done (its
   * dependents start) once the write is durable. Its intent was durable before its create was sent.
   * An operation may also return a note for its done line (what a destroy revoked).
   */
  const run = async (item: PlanItem, api: string, op: () => Promise<Outcome>): Promise<boolean | undefined> => {
    const quiet = item.action === 'noop';
    let t0 = Date.now();
    try {
      const recorded = await sems.for(api).run(async (): Promise<Outcome | typeof INTERRUPTED> => {
        if (opts.signal?.aborted) return INTERRUPTED;
        t0 = Date.now();
        if (!quiet) emit({ address: item.address, action: item.action, phase: 'start' });
        return op();
      });
      if (recorded === INTERRUPTED) return undefined;
      const note = typeof recorded === 'string' ? recorded : undefined;
      if (recorded && typeof recorded !== 'string') await recorded.recorded;
      if (!quiet) {
        result.done.push({ address: item.address, action: item.action });
        emit({ address: item.address, action: item.action, phase: 'done', ms: Date.now() - t0, ...(note ? { note } : {}) });
      }
      return true;
    } catch (e) {
      const error = (e as Error).message;
      result.failed.push({ address: item.address, action: item.action, error });
      emit({ address: item.address, action: item.action, phase: 'failed', error, ms: Date.now() - t0 });
      return false;
    }
  };

  const operationOf = (address: string): Promise<boolean> => {
    let p = outcome.get(address);
    if (p) return p;
    p = (async () => {
      const item = items.get(address)!;
      const first = order.get(address) ?? [];
      const ok = (await Promise.all(first.map(operationOf))).every(Boolean);
      if (!ok) return skip(item, REMOVAL.has(item.action) ? 'an object that used it was not updated or removed' : 'a dependency failed');
      // A role or connection leaving goes after the revocation of leases issued under it that new credentials replaced
      // (awaited outside any slot: that revocation waits for the consumers' operations).
      if (REMOVAL.has(item.action)) await Promise.all(revocations.filter((r) => r.dependsOn.includes(address)).map((r) => r.done));
      if (item.action === 'noop' && !item.stateChanges?.length && !item.deposed?.length) return recordSeen(item);
      const api = desired[address]?.provider.api ?? state.record(address)?.provider.api ?? '';
      const done = await run(item, api, () => (REMOVAL.has(item.action) ? remove(item) : converge(item, desired[address])));
      return done ?? skip(item, 'interrupted');
    })();
    outcome.set(address, p);
    return p;
  };

  /** A no-op keeps its record; outputs the plan read refresh it (no API call, no serial bump when equal). */
  const recordSeen = async (item: PlanItem): Promise<true> => {
    const rec = state.record(item.address);
    if (rec && item.outputs && JSON.stringify({ ...rec.outputs, ...item.outputs }) !== JSON.stringify(rec.outputs)) {
      await state.put(item.address, { ...rec, outputs: { ...rec.outputs, ...item.outputs } });
    }
    return true;
  };

  const remove = async (item: PlanItem): Promise<string | void> => {
    if (item.movedTo) {
      // The new address took the record over (in the same write, for an update); after a replace it holds a new object.
      if (state.record(item.address)) await state.put(item.address, undefined);
      return;
    }
    const rec = state.record(item.address);
    if (!rec) return;
    const id = rec.id || item.id;
    if (item.action === 'delete' && rec.dataSource) {
      // Credentials converge issued: revoked before the role or connection they came from is deleted (removals wait for dependents).
      const note = await release(rec);
      applied.add(item.address);
      await state.put(item.address, undefined);
      return note;
    }
    if (item.action === 'delete' && id) {
      await resourceHandler(rec.kind).delete({ address: rec.path ?? item.address, http: clients.for(declared.forRecord(item.address, rec)) }, id,
        { id, spec: rec.spec, outputs: rec.outputs });
    }
    applied.add(item.address);
    await state.put(item.address, undefined);
  };

  /** Ends what a credential data source's record holds (revokes its lease); what it did, in words. */
  const release = async (rec: StateRecord): Promise<string | undefined> => {
    const h = dataSourceHandler(rec.kind);
    if (!h.release || rec.status !== 'created') return undefined;
    return h.release({ address: rec.path ?? '', http: clients.for(rec.provider) }, { ...rec.outputs, ...sensitiveOutputsOf(rec) });
  };

  /** References at apply: what this apply wrote, else what the plan read, else the last state. */
  const lookup = (address: string, attr: string, stack?: string): unknown => {
    if (stack !== undefined) return otherStack(opts.otherStacks, stack, address, attr);
    const item = items.get(address);
    const rec = state.record(address) ?? (item?.movedFrom ? state.record(item.movedFrom) : undefined);
    if (!applied.has(address) && item?.outputs && attr in item.outputs) return item.outputs[attr];
    if (!rec || rec.status !== 'created') return UNKNOWN;
    const plain = attrValue(rec.outputs, attr);
    if (plain !== undefined) return plain;
    const secret = attrValue(sensitiveOutputsOf(rec), attr);
    if (secret !== undefined) return new SensitiveValue(secret, `${address}.${attr}`);
    const v = rec.spec[attr];
    return v === undefined ? UNKNOWN : v;
  };

  /** Data sources read again before anything is written: what the plan read, or the plan is stale. */
  const reads = new Map<string, Record<string, unknown>>();
  const readAsPlanned = async (): Promise<void> => {
    const stale: string[] = [];
    await Promise.all(plan.items.filter((i) => i.action === 'read' && i.readDigest && desired[i.address]).map((item) => {
      const r = desired[item.address];
      return sems.for(r.provider.api).run(async () => {
        const resolved = resolveSpec(r.spec, r.path, lookup, undefined);
        if (resolved.hasUnknown) return;
        const h = dataSourceHandler(r.kind);
        const now = await h.read({ address: r.path, http: clients.for(r.provider) }, resolved.value);
        const differs = readDifference(h, { outputs: item.outputs ?? {}, readDigest: item.readDigest! }, now);
        if (differs.length) stale.push(`${item.address} (${item.kind}) reads other values than when the plan was made (${differs.join(', ')})`);
        else reads.set(item.address, now);
      });
    }));
    if (stale.length) {
      throw new Error(`the plan is stale: ${stale.sort().join('; ')}; run converge plan again (nothing was applied in stack ${plan.stack})`);
    }
  };

  /** Returns the operation's last state write when it is still in flight (see `run`). */
  const converge = async (item: PlanItem, r: DesiredResource): Promise<Outcome> => {
    let last: Promise<void> | undefined;
    const recordLater = (p: Promise<void>): void => {
      last = p;
      p.catch(() => undefined); // awaited by run once the slot is released
    };
    const prior = state.record(item.address) ?? (item.movedFrom ? state.record(item.movedFrom) : undefined);
    const keepSalt = prior && prior.kind === r.kind && prior.status === 'created' && !prior.dataSource && item.action !== 'replace';
    const salt = keepSalt ? prior.salt : newSalt();
    const resolved = resolveSpec(r.spec, r.path, lookup, salt);
    if (resolved.hasUnknown) {
      // Name what is missing: an attribute the referenced object's read never produced is a handler or server mismatch.
      throw new Error(`${r.path}: a referenced value is still unknown (${(resolved.unknownRefs ?? []).join('; ')}): ` +
        'the referenced object has no such value after its read or apply');
    }
    const stackRefs = crossStackRefs(r.spec);
    // One retry budget for the whole operation (first attempt, re-read and recovery alike).
    const ctx: HandlerContext = withRetryBudget({
      address: r.path, http: clients.for(r.provider),
      ...(item.version !== undefined ? { expectedVersion: item.version } : {}),
      ...(item.action === 'create' && prior?.status === 'created' && prior.kind === r.kind ? { recreate: true } : {}),
    });
    const record = (w: Written, status: 'created' | 'creating' = 'created', extra: Partial<StateRecord> = {}): StateRecord => ({
      kind: r.kind, status, id: w.id, spec: resolved.stored, hmacs: resolved.hmacs, outputs: w.outputs ?? {},
      ...(w.sensitiveOutputs && Object.keys(w.sensitiveOutputs).length ? { sensitiveOutputs: encrypt(JSON.stringify(w.sensitiveOutputs)) } : {}),
      dependsOn: r.dependsOn, ...(stackRefs.length ? { stackRefs } : {}), removalPolicy: r.removalPolicy, provider: r.provider, path: r.path,
      ...(r.dataSource ? { dataSource: true } : {}), ...(salt ? { salt } : {}), ...extra,
    });
    applied.add(item.address);

    if (item.action === 'read') {
      if (item.removesPrior?.action === 'delete' && prior && !prior.dataSource && prior.id) {
        // The resource that became this lookup leaves the app first (its removal policy is destroy).
        await resourceHandler(prior.kind).delete({ address: prior.path ?? r.path, http: clients.for(prior.provider) }, prior.id,
          { id: prior.id, spec: prior.spec, outputs: prior.outputs });
        await state.put(item.address, undefined);
      }
      const h = dataSourceHandler(r.kind);
      const out = reads.get(item.address) ?? await h.read(ctx, resolved.value);
      const sensitive = new Set(h.sensitiveOutputs ?? []);
      const plain = Object.fromEntries(Object.entries(out).filter(([k]) => !sensitive.has(k)));
      const secret = Object.fromEntries(Object.entries(out).filter(([k]) => sensitive.has(k)));
      await state.put(item.address, record({ id: item.address, outputs: plain, sensitiveOutputs: secret }));
      // Credentials issued anew (renewed, re-read during apply, or the data source names another role): the lease they
      // replace is revoked once what uses them holds the new ones (see revokeSuperseded); state no longer holds it.
      if (prior?.dataSource && prior.kind === r.kind && prior.status === 'created' && h.release && prior.outputs.leaseId !== out.leaseId) {
        revocations.push({ dependsOn: prior.dependsOn, done: revokeSuperseded(item.address, prior) });
      }
      return;
    }
    if (r.dataSource) {
      // Credentials kept from state (their lease runs on): only what state keeps beside them changes.
      if (prior) {
        // Re-encrypted: the ciphertext is bound to the address it was written at (a move changes it).
        const secret = sensitiveOutputsOf(prior);
        const rest: StateRecord = { ...prior };
        delete (rest as { sensitiveOutputs?: string }).sensitiveOutputs;
        await state.put(item.address, { ...rest, dependsOn: r.dependsOn, removalPolicy: r.removalPolicy, provider: r.provider, path: r.path,
          ...(Object.keys(secret).length ? { sensitiveOutputs: encrypt(JSON.stringify(secret)) } : {}) });
      }
      return;
    }
    const handler = resourceHandler(r.kind);
    const create = async (extra: Partial<StateRecord> = {}): Promise<void> => {
      // The intent: if converge dies between the create and the record, the next run adopts what this create made.
      const naturalId = handler.naturalId(resolved.value);
      const intent = { since: new Date().toISOString(), ...extra };
      await state.put(item.address, record({ id: naturalId ?? '', outputs: {} }, 'creating', intent));
      let w: Written;
      try {
        w = await createSafely(handler, ctx, resolved);
      } catch (e) {
        // The object was made, a later write of the create failed: the intent stays, with its identity, for the next run to adopt.
        if (e instanceof IncompleteCreate) {
          await state.put(item.address, record({ id: e.id, outputs: {} }, 'creating', intent));
          throw e;
        }
        // Refused for certain (not a lost answer): nothing was made, so no intent stays behind.
        if (!isAmbiguous(e)) await state.put(item.address, extra.deposed ? prior : undefined);
        throw e;
      }
      recordLater(state.put(item.address, record(w, 'created', extra)));
    };

    switch (item.action) {
      case 'create':
        await create();
        break;
      case 'replace':
        await replace(item.address, r, resolved, handler, prior, create);
        break;
      case 'update':
      case 'adopt':
      case 'noop': {
        const id = item.id ?? prior?.id;
        if (!id) throw new Error(`${r.path}: no identity to update`);
        const known = prior?.status === 'created' ? prior : undefined;
        let w: Written | undefined = item.action === 'noop' ? { id, outputs: item.outputs } : undefined;
        if (!w && item.changes.length) {
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
        // State records what was sent: nothing for a no-op, the changed fields for an update.
        const hmacs = !known ? resolved.hmacs : item.action === 'noop' ? known.hmacs : item.action === 'update' ? sentHmacs(resolved, known, item) : resolved.hmacs;
        // Sensitive outputs the service answered only at creation (a TOTP key's url and barcode) are carried
        // over: a record rebuilt for a state-only change or a move must not lose them.
        const sensitiveOutputs = { ...sensitiveOutputsOf(known), ...(w.sensitiveOutputs ?? {}) };
        const next = { ...record({ ...w, outputs: { ...(prior?.outputs ?? {}), ...(item.outputs ?? {}), ...(w.outputs ?? {}) }, sensitiveOutputs }), hmacs };
        if (item.movedFrom) {
          // One batch: the record moves, it is never held by both addresses nor by neither.
          await Promise.all([state.put(item.address, next), state.put(item.movedFrom, undefined)]);
        } else {
          recordLater(state.put(item.address, next));
        }
        break;
      }
    }
    await deleteDeposed(item, handler, ctx);
    return last && { recorded: last };
  };

  /** Deletes the objects an interrupted create-before-destroy left behind, recording each. */
  const deleteDeposed = async (item: PlanItem, handler: ResourceHandler, ctx: HandlerContext): Promise<void> => {
    for (const id of state.record(item.address)?.deposed ?? []) {
      const rec = state.record(item.address)!;
      await handler.delete(ctx, id, { id, spec: rec.spec, outputs: rec.outputs });
      const rest = (rec.deposed ?? []).filter((x) => x !== id);
      await state.put(item.address, { ...rec, deposed: rest.length ? rest : undefined });
    }
  };

  /**
   * A replace: by default the old object is deleted first (its deletion recorded at once), then the
   * new one created; with createBeforeDestroy (server-assigned identities only), the new one is
   * created first and the old one kept in state as deposed until it is deleted.
   */
  const replace = async (address: string, r: DesiredResource, resolved: ResolvedSpec, handler: ResourceHandler,
    prior: StateRecord | undefined, create: (extra?: Partial<StateRecord>) => Promise<void>): Promise<void> => {
    const oldHandler = resourceHandler(prior?.kind ?? r.kind);
    // The old object through the app's provider: the one its record names if the app declares it, else the construct's own.
    const oldProvider = !prior ? r.provider : declared.resolve(prior.provider) ?? (prior.provider?.api === r.provider.api ? r.provider : declared.forRecord(address, prior));
    const oldCtx: HandlerContext = { address: prior?.path ?? r.path, http: clients.for(oldProvider) };
    const oldId = prior?.status === 'created' ? prior.id : undefined;
    const canCoexist = r.createBeforeDestroy && prior?.kind === r.kind && handler.naturalId(resolved.value) === undefined;
    if (oldId && canCoexist) {
      await create({ deposed: [...(prior?.deposed ?? []), oldId] });
      return;
    }
    if (oldId) {
      await oldHandler.delete(oldCtx, oldId, { id: oldId, spec: prior!.spec, outputs: prior!.outputs });
      // The first half is recorded: a crash now leaves no record of an object that is gone.
      await state.put(address, undefined);
    }
    await create();
  };

  /**
   * Revokes the lease that re-issued credentials replaced, once every object of the stack that uses
   * them was written with the new ones (their operations done): the old database user is dropped
   * rather than left until its lease ends, or for good once its connection is deleted. When a user
   * failed or was skipped, the old lease is left to end by itself, and the apply says so. Started
   * (not awaited) by the read that issued the new credentials: its consumers wait for that read.
   */
  const revokeSuperseded = async (address: string, prior: StateRecord): Promise<void> => {
    const users = Object.entries(desired).filter(([, d]) => d.dependsOn.includes(address)).map(([a]) => a);
    const pending: string[] = [];
    for (const a of users) if (!outcome.has(a) || !(await outcome.get(a))) pending.push(a);
    const leaseId = String(prior.outputs.leaseId);
    if (pending.length) {
      emit({ address, action: 'read', phase: 'note', note: `lease ${leaseId} it replaced is left to end by itself: ${pending.join(', ')} did not take the new credentials` });
      return;
    }
    try {
      const note = await release(prior);
      if (note) emit({ address, action: 'read', phase: 'note', note: `${note} (replaced by new credentials)` });
    } catch (e) {
      const error = `could not revoke lease ${leaseId} it replaced: ${(e as Error).message}`;
      result.failed.push({ address, action: 'revoke', error });
      emit({ address, action: 'read', phase: 'note', note: error, error });
    }
  };

  await readAsPlanned();
  await Promise.all(plan.items.filter((i) => FORWARD.has(i.action) || REMOVAL.has(i.action)).map((i) => operationOf(i.address)));
  await Promise.all(revocations.map((r) => r.done));
  await state.flush();
  return result;
}

/**
 * HMACs of what an update sent: handlers write whole top-level fields, so a secret under a field
 * the update changed was sent (its new HMAC), and one under an unchanged field was not (the HMAC
 * of what the last apply sent stays). A secret whose source changed after a saved plan was made is
 * thus seen as changed by the next plan, not recorded as sent.
 */
function sentHmacs(resolved: ResolvedSpec, prior: StateRecord, item: PlanItem): Record<string, string> {
  const touched = new Set(item.changes.map((c) => topKey(c.path)));
  const out: Record<string, string> = {};
  for (const [path, h] of Object.entries(resolved.hmacs)) {
    out[path] = touched.has(topKey(path)) || prior.hmacs[path] === undefined ? h : prior.hmacs[path];
  }
  return out;
}
