/**
 * What changes for traffic between two compiled chains of a service, in words: protocol,
 * start node, routes added/removed/redirected, split weights, targets, connect timeouts and
 * failover order.
 */
import { ChainNode, CompiledChain, CompiledRoute } from '../compiler/chain';

interface RouteDef {
  Match?: { HTTP?: { PathPrefix?: string; PathExact?: string; Header?: { Name?: string; Exact?: string; Present?: boolean; Prefix?: string; Suffix?: string }[] } };
  Destination?: { PrefixRewrite?: string; RequestTimeout?: string; NumRetries?: number; RetryOnConnectFailure?: boolean; RetryOnStatusCodes?: number[] };
}

/** `resolver:web.default.dc1` -> `web.default.dc1`; `splitter:web` -> `splitter web`. */
function nodeLabel(key: string): string {
  const [type, ...rest] = key.split(':');
  const name = rest.join(':');
  return type === 'resolver' ? name : `${type} ${name}`;
}

function matchLabel(def: RouteDef): string {
  const http = def.Match?.HTTP ?? {};
  const parts: string[] = [];
  if (http.PathExact) parts.push(`path = ${http.PathExact}`);
  if (http.PathPrefix) parts.push(`path prefix ${http.PathPrefix}`);
  for (const h of http.Header ?? []) {
    if (h.Exact !== undefined) parts.push(`header ${h.Name} = ${h.Exact}`);
    else if (h.Present) parts.push(`header ${h.Name} present`);
    else if (h.Prefix !== undefined) parts.push(`header ${h.Name} prefix ${h.Prefix}`);
    else if (h.Suffix !== undefined) parts.push(`header ${h.Name} suffix ${h.Suffix}`);
  }
  return parts.length ? parts.join(', ') : 'every request';
}

function routeTarget(r: CompiledRoute): string {
  const d = (r.Definition as RouteDef).Destination ?? {};
  const opts: string[] = [];
  if (d.PrefixRewrite) opts.push(`rewrite ${d.PrefixRewrite}`);
  if (d.RequestTimeout) opts.push(`timeout ${d.RequestTimeout}`);
  if (d.NumRetries) opts.push(`${d.NumRetries} retries`);
  if (d.RetryOnConnectFailure) opts.push('retry on connect failure');
  if (d.RetryOnStatusCodes?.length) opts.push(`retry on ${d.RetryOnStatusCodes.join('/')}`);
  return `${nodeLabel(r.NextNode)}${opts.length ? ` (${opts.join(', ')})` : ''}`;
}

function routesOf(chain: CompiledChain): { match: string; to: string }[] {
  const router = Object.values(chain.Nodes).find((n) => n.Type === 'router');
  if (!router) return [];
  const routes = router.Routes ?? [];
  return routes.map((r, i) => ({
    match: i === routes.length - 1 ? `catch-all ${matchLabel(r.Definition as RouteDef)}` : matchLabel(r.Definition as RouteDef),
    to: routeTarget(r),
  }));
}

function splitsOf(chain: CompiledChain): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const n of Object.values(chain.Nodes) as ChainNode[]) {
    if (n.Type !== 'splitter') continue;
    const m = new Map<string, number>();
    for (const s of n.Splits ?? []) m.set(nodeLabel(s.NextNode), (m.get(nodeLabel(s.NextNode)) ?? 0) + s.Weight);
    out.set(n.Name, m);
  }
  return out;
}

function resolversOf(chain: CompiledChain): Map<string, { timeout: string; failover: string[] }> {
  const out = new Map<string, { timeout: string; failover: string[] }>();
  for (const n of Object.values(chain.Nodes) as ChainNode[]) {
    if (n.Type === 'resolver' && n.Resolver) {
      out.set(n.Resolver.Target, { timeout: n.Resolver.ConnectTimeout, failover: n.Resolver.Failover?.Targets ?? [] });
    }
  }
  return out;
}

const list = (xs: string[]) => (xs.length ? `[${xs.join(', ')}]` : 'none');
const pct = (w: number) => `${Number(w.toFixed(2))}%`;

/** Lines describing what changes for traffic from `before` to `after` (empty when nothing does). */
export function diffChains(before: CompiledChain, after: CompiledChain): string[] {
  const notes: string[] = [];
  if (before.Protocol !== after.Protocol) notes.push(`protocol ${before.Protocol} -> ${after.Protocol}`);
  if (before.StartNode !== after.StartNode) notes.push(`starts at ${nodeLabel(after.StartNode)} (was ${nodeLabel(before.StartNode)})`);

  const rb = routesOf(before);
  const ra = routesOf(after);
  const byMatch = (rs: { match: string; to: string }[]) => new Map(rs.map((r) => [r.match, r.to]));
  const mb = byMatch(rb);
  const ma = byMatch(ra);
  for (const r of ra) {
    const was = mb.get(r.match);
    if (was === undefined) notes.push(`route added: ${r.match} -> ${r.to}`);
    else if (was !== r.to) notes.push(`route ${r.match}: -> ${was} becomes -> ${r.to}`);
  }
  for (const r of rb) if (!ma.has(r.match)) notes.push(`route removed: ${r.match} -> ${r.to}`);
  const order = (rs: { match: string }[]) => rs.map((r) => r.match).filter((m) => mb.has(m) && ma.has(m)).join('|');
  if (order(rb) !== order(ra)) notes.push(`route order: ${list(ra.map((r) => r.match))}`);

  const sb = splitsOf(before);
  const sa = splitsOf(after);
  for (const name of new Set([...sb.keys(), ...sa.keys()])) {
    const b = sb.get(name);
    const a = sa.get(name);
    if (!b) { notes.push(`split ${name} added: ${[...a!].map(([t, w]) => `${t} ${pct(w)}`).join(', ')}`); continue; }
    if (!a) { notes.push(`split ${name} removed (was ${[...b].map(([t, w]) => `${t} ${pct(w)}`).join(', ')})`); continue; }
    for (const t of new Set([...b.keys(), ...a.keys()])) {
      const wb = b.get(t) ?? 0;
      const wa = a.get(t) ?? 0;
      if (wb !== wa) notes.push(`split ${name}: ${t} ${pct(wb)} -> ${pct(wa)}`);
    }
  }

  const vb = resolversOf(before);
  const va = resolversOf(after);
  for (const [t, a] of va) {
    const b = vb.get(t);
    if (!b) {
      notes.push(`target added: ${t} (connect timeout ${a.timeout}${a.failover.length ? `, failover ${list(a.failover)}` : ''})`);
      continue;
    }
    if (b.timeout !== a.timeout) notes.push(`connect timeout of ${t}: ${b.timeout} -> ${a.timeout}`);
    if (b.failover.join() !== a.failover.join()) notes.push(`failover of ${t}: ${list(b.failover)} -> ${list(a.failover)}`);
  }
  for (const t of vb.keys()) if (!va.has(t)) notes.push(`target removed: ${t}`);
  const modes = (c: CompiledChain) => new Map(Object.values(c.Targets).map((t) => [t.ID, t.MeshGateway.Mode ?? '']));
  const gb = modes(before);
  for (const [id, mode] of modes(after)) {
    const was = gb.get(id);
    if (was !== undefined && was !== mode) notes.push(`mesh gateway of ${id}: ${was || 'default'} -> ${mode || 'default'}`);
  }
  return notes;
}
