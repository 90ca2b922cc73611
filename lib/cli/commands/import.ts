import { flatten, topKey } from '../../core/engine/diff';
import { Spec } from '../../core/engine/handler';
import { sensitiveOutputsOf } from '../../core/engine/planner';
import { dataSourceHandler, resourceHandler } from '../../core/engine/registry';
import { isUnknown, ResolvedSpec, resolveSpec, SensitiveValue, topAttr, UNKNOWN } from '../../core/engine/resolve-spec';
import { DesiredStack, isAttrRef, isSecretRef } from '../../core/model';
import { crossStackRefs, OtherStacks, stacksReadBy } from '../../core/engine/other-stacks';
import { fieldHmac, newSalt } from '../../core/crypto/field-hmac';
import { assertIdentitiesFree } from '../../core/engine/reconcile';
import { ApiClients } from '../../core/engine/api-clients';
import { StateBackend } from '../../core/state/state-model';
import { StateStore } from '../../core/state/state-store';
import { Output } from '../output';
import { tuning, withLockedState } from '../session';
import { AppOptions, loadStacks, selectStacks } from '../workspace';

/** `converge import ADDRESS ID`: takes an existing object under the construct at ADDRESS. */
export async function importCommand(address: string, id: string, opts: AppOptions, out: Output): Promise<number> {
  const all = loadStacks(opts);
  const [desired] = selectStacks(all, opts.stack);
  const r = desired.resources[address];
  if (!r) throw new Error(`no construct at address "${address}" in stack ${desired.stack} (addresses: ${Object.keys(desired.resources).join(', ')})`);
  if (r.dataSource) throw new Error(`${address} is a data source: there is nothing to import`);
  return withLockedState(desired.stack, 'import', tuning({}), out, async (state, clients, backend) => {
    await importObject({ desired, all, state, clients, backend, out }, address, id);
    return 0;
  });
}

/** What importing into one stack needs: the app's stacks, and the stack's state and API clients under its lock. */
export interface ImportTarget {
  readonly desired: DesiredStack;
  readonly all: readonly DesiredStack[];
  readonly state: StateStore;
  readonly clients: ApiClients;
  readonly backend: StateBackend;
  readonly out: Output;
}

/**
 * Takes the existing object `id` under the construct at `address` (`converge import`, and each object
 * `converge migrate terraform` takes): records it as apply would, its secrets as HMACs only.
 */
export async function importObject(t: ImportTarget, address: string, id: string): Promise<void> {
  const { desired, all, state, clients, backend, out } = t;
  const r = desired.resources[address];
  if (!r) throw new Error(`no construct at address "${address}" in stack ${desired.stack}`);
  const handler = resourceHandler(r.kind);
  const normalised = handler.importId ? handler.importId(id) : id;
  // One object, one address across stacks, as plan checks it: an object another stack of the app manages is not taken.
  const assertFree = (objectId: string) => assertIdentitiesFree(desired.stack, { [address]: { kind: r.kind, id: objectId, path: r.path } }, backend, all, [],
    `import of ${address} into stack ${desired.stack} refused`);
  const other = new OtherStacks();
  await other.load(backend, stacksReadBy(desired));
  const existing = state.record(address);
  if (existing?.status === 'created') throw new Error(`${address} is already managed (id ${existing.id}); use converge state rm first`);
  const salt = newSalt();
  const resolved = resolveSpec(r.spec, r.path, (ref, attr, stack) => {
    if (stack !== undefined) return other.lookup(stack, ref, attr);
    const rec = state.record(ref);
    if (rec?.outputs[attr] !== undefined) return rec.outputs[attr];
    const secret = sensitiveOutputsOf(rec)[attr];
    return secret === undefined ? UNKNOWN : new SensitiveValue(secret, `${ref}.${attr}`);
  }, salt);
  const ctx = { address: r.path, http: clients.for(r.provider) };
  const observed = await handler.read(ctx, normalised, resolved.value);
  if (!observed) {
    // Something still holds the identity (a KV key whose latest version is deleted): taken as it is, and
    // marked so that the next apply writes it again on top.
    const remains = await handler.remains?.(ctx, normalised, resolved.value);
    if (!remains) throw new Error(`${r.path}: no ${r.kind} with id "${normalised}" exists`);
    const twin = Object.entries(state.records).find(([a, rec]) => a !== address && rec.kind === r.kind && rec.id === normalised);
    if (twin) throw new Error(`${r.path}: ${normalised} is already managed at ${twin[0]}; an object is managed at one address only`);
    await assertFree(normalised);
    await state.put(address, {
      kind: r.kind, status: 'created', id: normalised, spec: resolved.stored, hmacs: resolved.hmacs, outputs: {}, salt, deletedOutside: true,
      dependsOn: r.dependsOn, removalPolicy: r.removalPolicy, provider: r.provider, path: r.path,
    });
    out.result(`Imported ${normalised} as ${address}: ${remains}; the next apply writes it again.`);
    return;
  }
  // One identity per object: the canonical one (an agent pool imported by its name is recorded by its id).
  const canonical = observed.id ?? normalised;
  const twin = Object.entries(state.records).find(([a, rec]) => a !== address && rec.kind === r.kind && rec.id === canonical);
  if (twin) throw new Error(`${r.path}: ${canonical} is already managed at ${twin[0]}; an object is managed at one address only`);
  await assertFree(canonical);

  const { spec, hmacs, writeOnly } = importedSpec(observed.fields, resolved, new Set(handler.sensitiveFields ?? []), salt,
    unresolvedSecretRefs(r.spec, resolved, desired));
  // What it reads of other stacks, as apply records it: destroying a producer warns about this reader.
  const stackRefs = crossStackRefs(r.spec);
  await state.put(address, {
    kind: r.kind, status: 'created', id: canonical, spec, hmacs, outputs: observed.outputs ?? {}, salt,
    ...(stackRefs.length ? { stackRefs } : {}), dependsOn: r.dependsOn, removalPolicy: r.removalPolicy, provider: r.provider, path: r.path,
  });
  out.result(`Imported ${canonical} as ${address}. Run converge plan to see how it differs from the app.`);
  if (writeOnly.length) {
    out.result(`Write-only fields cannot be read from the API and are taken to match the app: ${writeOnly.join(', ')}.`);
  }
}

/**
 * What import records, as apply would: the fields the app manages (top-level keys of its spec) as
 * observed; secrets (the app's secret inputs, and every value under a field that is sensitive as a
 * whole) only as an HMAC of the observed value, never the value. Write-only fields (the API never
 * returns them) are taken to match the app: their source and the app's HMAC.
 */
export function importedSpec(observed: Spec, resolved: ResolvedSpec, sensitiveTop: Set<string>, salt: string,
  secretRefs: ReadonlyMap<string, string> = new Map()): { spec: Spec; hmacs: Record<string, string>; writeOnly: string[] } {
  const spec: Spec = {};
  const hmacs: Record<string, string> = {};
  const want = flatten(resolved.stored);
  const seen = flatten(observed);
  const managed = Object.keys(resolved.stored);
  for (const key of managed) if (key in observed) spec[key] = structuredClone(observed[key]);
  for (const [path, value] of seen) {
    const key = topKey(path);
    if (!(key in spec)) continue;
    const desired = want.get(path);
    const ref = secretRefs.get(path);
    const secret = resolved.secretPaths.has(path) || isSecretRef(desired) || ref !== undefined;
    if (!secret && !sensitiveTop.has(key)) continue;
    if (!secret && desired !== undefined && JSON.stringify(desired) === JSON.stringify(value)) continue; // plain, and in the app already
    // An unresolved secret reference is recorded as a resolved one would be: its source, and the HMAC of what is there.
    setPath(spec, path, ref !== undefined ? { $secret: { ref } } : secret ? desired : { $secret: { observed: true } });
    hmacs[path] = fieldHmac(salt, path, value);
  }
  const writeOnly = managed.filter((k) => !(k in observed));
  for (const key of writeOnly) spec[key] = resolved.stored[key];
  for (const [path, h] of Object.entries(resolved.hmacs)) if (writeOnly.includes(topKey(path))) hmacs[path] = h;
  return { spec, hmacs, writeOnly: [...want.keys()].filter((p) => writeOnly.includes(topKey(p))) };
}

/**
 * Paths of the spec holding a reference to a secret (flagged secret, or a sensitive output of the
 * construct it names) that is still unknown (its data source has no record yet, when migrating into
 * an empty state): path -> `address.attr`. What import observes there is a secret all the same.
 */
function unresolvedSecretRefs(raw: Record<string, unknown>, resolved: ResolvedSpec, desired: DesiredStack): Map<string, string> {
  const out = new Map<string, string>();
  const sensitive = (address: string, attr: string): boolean => {
    const r = desired.resources[address];
    if (!r) return false;
    const outputs = r.dataSource ? dataSourceHandler(r.kind).sensitiveOutputs
      : (resourceHandler(r.kind) as { sensitiveOutputs?: readonly string[] }).sensitiveOutputs;
    return (outputs ?? []).includes(topAttr(attr));
  };
  const values = flatten(resolved.value);
  const walk = (v: unknown, p: string): void => {
    if (isAttrRef(v)) {
      const at = values.get(p);
      if (isUnknown(at) && (v.secret || (v.stack === undefined && sensitive(v.$ref, v.attr)))) {
        out.set(p, `${v.$ref}.${v.attr}`);
      }
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${p}[${i}]`));
    } else if (v !== null && typeof v === 'object' && !isSecretRef(v)) {
      for (const [k, x] of Object.entries(v)) walk(x, p ? `${p}.${k}` : k);
    }
  };
  walk(raw, '');
  return out;
}

/** Sets a dotted spec path (`data.password`, `vars[0].value`), creating objects on the way. */
function setPath(obj: Record<string, unknown>, p: string, value: unknown): void {
  const keys = p.split(/\.|\[(\d+)\]/).filter(Boolean);
  let o: Record<string, unknown> = obj;
  keys.slice(0, -1).forEach((k, i) => {
    if (typeof o[k] !== 'object' || o[k] === null) o[k] = /^\d+$/.test(keys[i + 1]) ? [] : {};
    o = o[k] as Record<string, unknown>;
  });
  o[keys[keys.length - 1]] = value;
}
