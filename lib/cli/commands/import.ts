import { flatten } from '../../core/engine/diff';
import { resourceHandler } from '../../core/engine/registry';
import { resolveSpec, UNKNOWN } from '../../core/engine/resolve-spec';
import { Output } from '../output';
import { tuning, withLockedState } from '../session';
import { AppOptions, loadStacks, selectStacks } from '../workspace';

/** `converge import ADDRESS ID`: takes an existing object under the construct at ADDRESS. */
export async function importCommand(address: string, id: string, opts: AppOptions, out: Output): Promise<number> {
  const [desired] = selectStacks(loadStacks(opts), opts.stack);
  const r = desired.resources[address];
  if (!r) throw new Error(`no construct at address "${address}" in stack ${desired.stack} (addresses: ${Object.keys(desired.resources).join(', ')})`);
  if (r.dataSource) throw new Error(`${address} is a data source: there is nothing to import`);
  const handler = resourceHandler(r.kind);
  const normalised = handler.importId ? handler.importId(id) : id;
  return withLockedState(desired.stack, 'import', tuning({}), out, async (state, clients) => {
    const existing = state.record(address);
    if (existing?.status === 'created') throw new Error(`${address} is already managed (id ${existing.id}); use converge state rm first`);
    const observed = await handler.read({ address: r.path, http: clients.for(r.provider) }, normalised);
    if (!observed) throw new Error(`${r.path}: no ${r.kind} with id "${normalised}" exists`);
    // Write-only inputs (tokens, keys) cannot be read back: they are taken to match the app, as
    // their HMAC is recorded now. Otherwise the first plan would replace what was just imported.
    const resolved = resolveSpec(r.spec, r.path, (ref, attr) => state.record(ref)?.outputs[attr] ?? UNKNOWN);
    const readable = flatten(observed.fields);
    const writeOnly = [...flatten(resolved.stored).keys()].filter((p) => !readable.has(p) && !(p.split(/[.[]/)[0] in observed.fields));
    const hmacs = Object.fromEntries(writeOnly.filter((p) => resolved.hmacs[p]).map((p) => [p, resolved.hmacs[p]]));
    const spec = { ...observed.fields };
    for (const p of writeOnly) setPath(spec, p, getPath(resolved.stored, p));
    await state.put(address, {
      kind: r.kind, status: 'created', id: normalised, spec, hmacs, outputs: observed.outputs ?? {},
      dependsOn: r.dependsOn, removalPolicy: r.removalPolicy, provider: r.provider, path: r.path,
    });
    out.result(`Imported ${normalised} as ${address}. Run converge plan to see how it differs from the app.`);
    if (writeOnly.length) {
      out.result(`Write-only fields cannot be read from the API and are taken to match the app: ${writeOnly.join(', ')}.`);
    }
    return 0;
  });
}

/** Reads a dotted spec path (`data.password`, `vars[0].value`). */
function getPath(obj: unknown, p: string): unknown {
  return p.split(/\.|\[(\d+)\]/).filter(Boolean).reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);
}

/** Sets a dotted spec path, creating objects on the way. */
function setPath(obj: Record<string, unknown>, p: string, value: unknown): void {
  const keys = p.split(/\.|\[(\d+)\]/).filter(Boolean);
  let o: Record<string, unknown> = obj;
  keys.slice(0, -1).forEach((k, i) => {
    if (typeof o[k] !== 'object' || o[k] === null) o[k] = /^\d+$/.test(keys[i + 1]) ? [] : {};
    o = o[k] as Record<string, unknown>;
  });
  o[keys[keys.length - 1]] = value;
}
