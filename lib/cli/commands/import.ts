import { resourceHandler } from '../../core/engine/registry';
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
    await state.put(address, {
      kind: r.kind, status: 'created', id: normalised, spec: observed.fields, hmacs: {}, outputs: observed.outputs ?? {},
      dependsOn: r.dependsOn, removalPolicy: r.removalPolicy, provider: r.provider, path: r.path,
    });
    out.result(`Imported ${normalised} as ${address}. Run converge plan to see how it differs from the app.`);
    return 0;
  });
}
