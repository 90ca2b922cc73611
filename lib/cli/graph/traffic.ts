import { CompiledChain } from '../../mesh/compiler/chain';
import { ServiceTraffic } from '../../mesh/traffic/traffic-picture';
import { Drawing, GraphEdge, GraphGroup, GraphNode, IdMaker } from './model';

interface RouteDef { Match?: { HTTP?: { PathPrefix?: string; PathExact?: string; Header?: { Name?: string; Exact?: string }[] } } }

function routeLabel(def: RouteDef, last: boolean): string {
  const http = def.Match?.HTTP ?? {};
  const parts = [
    ...(http.PathExact ? [`path = ${http.PathExact}`] : []),
    ...(http.PathPrefix ? [`path prefix ${http.PathPrefix}`] : []),
    ...(http.Header ?? []).map((h) => `header ${h.Name}${h.Exact !== undefined ? ` = ${h.Exact}` : ''}`),
  ];
  return parts.length ? parts.join(', ') : last ? 'catch-all' : 'every request';
}

/** Split weights as the API gives them (Consul rounds to 0.01): `90%`, `33.33%`. */
function weight(w: number): string {
  return `${Number(w.toFixed(2))}%`;
}

/** One compiled chain: the service, its router (routes), splitters (weights), resolvers, their targets (subsets) and failover. */
function chainGroup(id: string, label: string, chain: CompiledChain, ids: IdMaker): GraphGroup {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const node = (key: string, text: string, shape: GraphNode['shape']) => {
    const nid = ids.id(`${id}\u0000${key}`);
    if (!nodes.some((n) => n.id === nid)) nodes.push({ id: nid, label: text, shape });
    return nid;
  };
  const target = (tid: string) => {
    const t = chain.Targets[tid];
    const text = t ? `${t.Service}${t.ServiceSubset ? ` subset ${t.ServiceSubset}` : ''}${t.Namespace !== 'default' ? ` ns ${t.Namespace}` : ''} dc ${t.Datacenter}` : tid;
    return node(`target:${tid}`, text, 'stadium');
  };
  const start = node('service', chain.ServiceName, 'round');
  edges.push({ from: start, to: node(chain.StartNode, nodeText(chain.StartNode, chain), shapeOf(chain.StartNode, chain)) });
  for (const [key, n] of Object.entries(chain.Nodes)) {
    const from = node(key, nodeText(key, chain), shapeOf(key, chain));
    const routes = n.Routes ?? [];
    routes.forEach((r, i) => edges.push({ from, to: node(r.NextNode, nodeText(r.NextNode, chain), shapeOf(r.NextNode, chain)), label: routeLabel(r.Definition as RouteDef, i === routes.length - 1) }));
    for (const s of n.Splits ?? []) edges.push({ from, to: node(s.NextNode, nodeText(s.NextNode, chain), shapeOf(s.NextNode, chain)), label: weight(s.Weight) });
    if (n.Resolver) {
      edges.push({ from, to: target(n.Resolver.Target), label: `timeout ${n.Resolver.ConnectTimeout}` });
      (n.Resolver.Failover?.Targets ?? []).forEach((t, i) => edges.push({ from, to: target(t), label: `failover ${i + 1}`, dashed: true }));
    }
  }
  return { id, label, nodes, edges };
}

function nodeText(key: string, chain: CompiledChain): string {
  const n = chain.Nodes[key];
  if (!n) return key;
  return n.Type === 'resolver' ? `resolver ${n.Name}` : `${n.Type} ${n.Name}`;
}

function shapeOf(key: string, chain: CompiledChain): GraphNode['shape'] {
  const t = chain.Nodes[key]?.Type;
  return t === 'router' ? 'hexagon' : t === 'splitter' ? 'diamond' : 'box';
}

/**
 * Every service's traffic: one group for its chain when a plan leaves it as it is, else one for
 * "before" and one for "after" (a chain that does not compile, or does not exist, is a single box saying so).
 */
export function trafficDrawing(services: readonly ServiceTraffic[], planned: boolean): Drawing {
  const ids = new IdMaker('t');
  const groups: GraphGroup[] = [];
  let g = 0;
  const group = (label: string, chain: CompiledChain | string | undefined) => {
    const id = `g${++g}`;
    if (chain === undefined || typeof chain === 'string') {
      const text = chain === undefined ? 'no entry shapes it: the default chain' : `does not compile: ${chain}`;
      groups.push({ id, label, nodes: [{ id: ids.id(`${id}\u0000none`), label: text, shape: 'box' }], edges: [] });
    } else {
      groups.push(chainGroup(id, label, chain, ids));
    }
  };
  for (const s of services) {
    const same = JSON.stringify(s.before) === JSON.stringify(s.after);
    if (!planned) group(`traffic ${s.label}`, s.after);
    else if (same) group(`traffic ${s.label} (unchanged by the plan)`, s.after);
    else {
      group(`traffic ${s.label}: before`, s.before);
      group(`traffic ${s.label}: after the plan`, s.after);
    }
  }
  return { groups, edges: [] };
}
