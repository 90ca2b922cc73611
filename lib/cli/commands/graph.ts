import * as fs from 'fs';
import { toMermaid } from '../graph/mermaid';
import { Drawing } from '../graph/model';
import { planTraffic } from '../graph/plan-traffic';
import { objectsDrawing } from '../graph/objects';
import { toSvg } from '../graph/svg';
import { trafficDrawing } from '../graph/traffic';
import { Output } from '../output';
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
