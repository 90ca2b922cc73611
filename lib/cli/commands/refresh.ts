import { DeclaredProviders, UndeclaredProviderError } from '../../core/engine/declared-providers';
import { driftOf } from '../../core/engine/diff';
import { resourceHandler } from '../../core/engine/registry';
import { Output } from '../output';
import { tuning, withLockedState } from '../session';
import { AppOptions, loadStacks, selectStacks } from '../workspace';

/**
 * `converge refresh`: reads every object in state, forgets those deleted outside converge,
 * updates the outputs of those that match state and reports drift (a drifted object keeps its record
 * as the last apply wrote it, so that the next plan reads it whole; apply converges the drift).
 */
export async function refreshCommand(opts: AppOptions & { parallelism?: string; lockTimeout?: string }, out: Output): Promise<number> {
  const [desired] = selectStacks(loadStacks(opts), opts.stack);
  const t = tuning(opts);
  return withLockedState(desired.stack, 'refresh', t, out, async (state, clients) => {
    let read = 0;
    let gone = 0;
    let drifted = 0;
    let unreachable = 0;
    const declared = new DeclaredProviders(desired);
    for (const [addr, rec] of Object.entries(state.records)) {
      if (rec.dataSource || rec.status !== 'created' || !rec.id) continue;
      const handler = resourceHandler(rec.kind);
      let provider;
      try {
        provider = declared.forRecord(addr, rec);
      } catch (e) {
        if (!(e instanceof UndeclaredProviderError)) throw e;
        unreachable++;
        out.error(e.message);
        continue;
      }
      read++;
      // The last applied spec is the hint the app would give (a mount with a slash, a duration's spelling).
      const ctx = { address: rec.path ?? addr, http: clients.for(provider) };
      const observed = await handler.read(ctx, rec.id, rec.spec);
      if (!observed) {
        gone++;
        // Something still holds its identity (a KV key whose latest version is deleted): it stays converge's.
        const remains = await handler.remains?.(ctx, rec.id, rec.spec);
        if (remains) {
          out.result(`- ${addr}: deleted outside converge (${rec.id} remains: ${remains}); kept in state: the next apply writes it again`);
          if (!rec.deletedOutside) await state.put(addr, { ...rec, deletedOutside: true });
          continue;
        }
        out.result(`- ${addr}: deleted outside converge; removed from state`);
        await state.put(addr, undefined);
        continue;
      }
      const drift = driftOf(observed.fields, rec, handler);
      if (drift.length) {
        drifted++;
        out.result(`~ ${addr}: changed outside converge (${drift.map((d) => d.path).join(', ')})`);
        // State keeps what the last apply wrote, its outputs included: recording the version seen beside the
        // old data would let the next plan skip the data read ("same version") and hide the drift.
        continue;
      }
      // A drifted object keeps the outputs only converge's own updates move (a KV secret's `version`):
      // handlers read them as "what converge wrote last", so the next plan re-reads and shows the drift.
      const outputs = { ...(observed.outputs ?? {}) };
      if (drift.length) for (const k of handler.outputsChangedByUpdate ?? []) if (k in rec.outputs) outputs[k] = rec.outputs[k];
      await state.put(addr, { ...rec, outputs: { ...rec.outputs, ...outputs } });
    }
    // Counted as read, before those gone were removed from state.
    out.result(`Refreshed ${read} objects of stack ${desired.stack}: ${gone} gone, ${drifted} drifted.`);
    return unreachable ? 1 : 0;
  });
}
