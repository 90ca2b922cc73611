import * as fs from 'fs';
import { OtherStacks } from '../../core/engine/other-stacks';
import { planReconciled } from '../../core/engine/reconcile';
import { DesiredStack } from '../../core/model';
import { apiView } from '../../mesh/traffic/traffic-diff';
import { isEntryKind, PlannedEntry, ServiceTraffic, trafficPicture } from '../../mesh/traffic/traffic-picture';
import { toMermaid } from '../graph/mermaid';
import { Drawing } from '../graph/model';
import { objectsDrawing } from '../graph/objects';
import { toSvg } from '../graph/svg';
import { trafficDrawing } from '../graph/traffic';
import { Output } from '../output';
import { tuning, withLockedState } from '../session';
import { AppOptions, inDependencyOrder, loadStacks, selectStacks } from '../workspace';

export interface GraphOptions extends Omit<AppOptions, 'stack'> {
  readonly stack?: string | readonly string[];
  readonly parallelism?: string;
  readonly lockTimeout?: string;
  /** `mermaid` (default) or `svg`. */
  readonly format?: string;
  /** Write the drawing to this file instead of stdout. */
  readonly out?: string;
  /** false (`--no-traffic`): only the objects and their dependencies; no API is contacted. */
  readonly traffic?: boolean;
}

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

/** `converge graph`: the stacks' objects and dependencies and the mesh's traffic before and after a plan, as Mermaid or SVG. */
export async function graphCommand(opts: GraphOptions, out: Output): Promise<number> {
  const format = opts.format ?? 'mermaid';
  if (format !== 'mermaid' && format !== 'svg') throw new Error(`--format must be mermaid or svg (got ${format})`);
  const all = loadStacks(opts);
  const stacks = inDependencyOrder(selectStacks(all, opts.stack, true));
  const objects = objectsDrawing(stacks);
  const traffic = opts.traffic === false ? undefined : trafficDrawing(await planTraffic(stacks, all, opts, out), true);
  const drawing: Drawing = { groups: [...objects.groups, ...(traffic?.groups ?? [])], edges: [...objects.edges, ...(traffic?.edges ?? [])] };
  const text = format === 'svg' ? toSvg(drawing) : toMermaid(drawing);
  if (opts.out) fs.writeFileSync(opts.out, text);
  else process.stdout.write(text);
  return 0;
}
