import { driftOf } from '../../core/engine/diff';
import { resourceHandler } from '../../core/engine/registry';
import { Output } from '../output';
import { tuning, withLockedState } from '../session';
import { AppOptions, loadStacks, selectStacks } from '../workspace';

/**
 * `converge refresh`: reads every object in state, forgets those deleted outside converge,
 * updates their outputs and reports drift (the drift itself is converged by apply).
 */
export async function refreshCommand(opts: AppOptions & { parallelism?: string }, out: Output): Promise<number> {
  const [desired] = selectStacks(loadStacks(opts), opts.stack);
  const t = tuning(opts);
  return withLockedState(desired.stack, 'refresh', t, out, async (state, clients) => {
    let read = 0;
    let gone = 0;
    let drifted = 0;
    for (const [addr, rec] of Object.entries(state.records)) {
      if (rec.dataSource || rec.status !== 'created' || !rec.id) continue;
      const handler = resourceHandler(rec.kind);
      read++;
      // The last applied spec is the hint the app would give (a mount with a slash, a duration's spelling).
      const ctx = { address: rec.path ?? addr, http: clients.for(rec.provider) };
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
      }
      await state.put(addr, { ...rec, outputs: { ...rec.outputs, ...(observed.outputs ?? {}) } });
    }
    // Counted as read, before those gone were removed from state.
    out.result(`Refreshed ${read} objects of stack ${desired.stack}: ${gone} gone, ${drifted} drifted.`);
    return 0;
  });
}
