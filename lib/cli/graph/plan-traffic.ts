import { OtherStacks } from '../../core/engine/other-stacks';
import { planReconciled } from '../../core/engine/reconcile';
import { DesiredStack } from '../../core/model';
import { apiView } from '../../mesh/traffic/traffic-diff';
import { isEntryKind, PlannedEntry, ServiceTraffic, trafficPicture } from '../../mesh/traffic/traffic-picture';
import { Output } from '../output';
import { tuning, withLockedState } from '../session';

/** The actions that change an entry (and so the traffic). */
const CHANGING = new Set(['create', 'update', 'replace', 'delete', 'adopt']);

/**
 * The traffic of the mesh, before and after a plan of the stacks (planned as `converge plan` plans
 * them, read-only): each stack with configuration entries is planned, and every service's chain is
 * compiled from the API's entries, then from them with that stack's planned changes applied.
 */
export async function planTraffic(stacks: readonly DesiredStack[], all: DesiredStack[], opts: { parallelism?: string; lockTimeout?: string }, out: Output): Promise<ServiceTraffic[]> {
  const t = tuning(opts);
  const other = new OtherStacks();
  const byLabel = new Map<string, ServiceTraffic>();
  for (const desired of stacks) {
    const meshEntries = Object.values(desired.resources).filter((r) => isEntryKind(r.kind));
    await withLockedState(desired.stack, 'graph', t, out, async (state, clients, backend) => {
      if (!meshEntries.length && !Object.values(state.records).some((r) => isEntryKind(r.kind))) return;
      const plan = await planReconciled(desired, state, { backend, clients, all, other, parallelism: t.parallelism, warn: (m: string) => out.warn(m) }, { refresh: true });
      other.planned(plan);
      const planned: PlannedEntry[] = plan.items.filter((i) => isEntryKind(i.kind) && CHANGING.has(i.action)).map((i) => ({
        kind: i.kind,
        before: state.record(i.address)?.spec as Record<string, unknown> | undefined,
        after: i.action === 'delete' ? undefined : desired.resources[i.address]?.spec as Record<string, unknown> | undefined,
      }));
      const provider = meshEntries[0]?.provider;
      const http = clients.any('mesh') ?? (provider ? clients.for(provider) : undefined);
      for (const s of await trafficPicture(planned, apiView(http))) {
        const seen = byLabel.get(s.label);
        byLabel.set(s.label, seen ? { ...s, before: seen.before } : s);
      }
    });
  }
  return [...byLabel.values()].sort((a, b) => a.label.localeCompare(b.label));
}
