import { DesiredStack } from '../../core/model';
import { Drawing, GraphEdge, GraphGroup, IdMaker } from './model';

/** The stacks' objects (address and kind) and their dependencies: an edge from an object to one it depends on. */
export function objectsDrawing(stacks: readonly DesiredStack[]): Drawing {
  const ids = new IdMaker('o');
  const groups: GraphGroup[] = [];
  const across: GraphEdge[] = [];
  const groupIds = new IdMaker('s');
  for (const s of stacks) {
    const key = (address: string, stack = s.stack) => `${stack}\u0000${address}`;
    const nodes = Object.entries(s.resources).sort(([a], [b]) => a.localeCompare(b))
      .map(([address, r]) => ({ id: ids.id(key(address)), label: `${address} (${r.kind})`, shape: r.dataSource ? 'round' as const : 'box' as const }));
    const edges: GraphEdge[] = [];
    for (const [address, r] of Object.entries(s.resources)) {
      for (const d of r.dependsOn ?? []) if (s.resources[d]) edges.push({ from: ids.id(key(address)), to: ids.id(key(d)) });
      for (const ref of stackRefs(r.spec)) {
        const other = stacks.find((o) => o.stack === ref.stack);
        if (other?.resources[ref.address]) across.push({ from: ids.id(key(address)), to: ids.id(key(ref.address, ref.stack)), label: 'reads', dashed: true });
      }
    }
    groups.push({ id: groupIds.id(s.stack), label: `stack ${s.stack}`, nodes, edges: dedupe(edges) });
  }
  return { groups, edges: dedupe(across) };
}

/** References to another stack's objects (`{"$ref": address, "stack": name}`) anywhere in a spec. */
function stackRefs(v: unknown, out: { stack: string; address: string }[] = []): { stack: string; address: string }[] {
  if (Array.isArray(v)) v.forEach((x) => stackRefs(x, out));
  else if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.$ref === 'string' && typeof o.stack === 'string') out.push({ stack: o.stack, address: o.$ref });
    else Object.values(o).forEach((x) => stackRefs(x, out));
  }
  return out;
}

function dedupe(edges: GraphEdge[]): GraphEdge[] {
  const seen = new Set<string>();
  return edges.filter((e) => { const k = `${e.from}>${e.to}>${e.label ?? ''}`; if (seen.has(k)) return false; seen.add(k); return true; });
}
