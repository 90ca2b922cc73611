/**
 * The graph check on write: an entry is refused when, with it written (or deleted), some
 * chain would fail to compile. Every service any entry names, in every namespace any entry
 * uses, is compiled.
 */
import { ConfigEntry, DEFAULT_NAMESPACE, entryKey, entryNamespace } from './entries';
import { compileDiscoveryChain } from './compile';

/** The services (`{namespace, service}`) that entries name, directly or as a destination. */
export function servicesNamedBy(entries: readonly ConfigEntry[]): { namespace: string; service: string }[] {
  const out = new Map<string, { namespace: string; service: string }>();
  const add = (namespace: string, service: string | undefined) => {
    if (service) out.set(`${namespace}/${service}`, { namespace, service });
  };
  for (const e of entries) {
    // Intentions decide who may call a service, not where its calls go: no chain compiles them.
    if (e.Kind === 'service-intentions') continue;
    const ns = entryNamespace(e);
    add(ns, e.Name === 'global' && e.Kind === 'proxy-defaults' ? undefined : e.Name);
    if (e.Kind === 'service-resolver') {
      if (e.Redirect) add(e.Redirect.Namespace || ns, e.Redirect.Service);
      for (const f of Object.values(e.Failover ?? {})) add(f.Namespace || ns, f.Service);
    } else if (e.Kind === 'service-splitter') {
      for (const s of e.Splits ?? []) add(s.Namespace || ns, s.Service);
    } else if (e.Kind === 'service-router') {
      for (const r of e.Routes ?? []) add(r.Destination?.Namespace || ns, r.Destination?.Service);
    }
  }
  return [...out.values()].sort((a, b) => `${a.namespace}/${a.service}`.localeCompare(`${b.namespace}/${b.service}`));
}

/** Replaces (or, with `remove`, deletes) one entry in a set, by kind, namespace and name. */
export function withEntry(entries: readonly ConfigEntry[], entry: ConfigEntry, remove = false): ConfigEntry[] {
  const key = entryKey(entry);
  const rest = entries.filter((e) => entryKey(e) !== key);
  return remove ? rest : [...rest, entry];
}

/** Throws the first compile error of any chain the entries define; `only` limits it to some services. */
export function checkGraph(entries: readonly ConfigEntry[], datacenter: string, trustDomain: string,
  only?: readonly { namespace: string; service: string }[]): void {
  for (const { namespace, service } of only ?? servicesNamedBy(entries)) {
    compileDiscoveryChain({ service, namespace: namespace || DEFAULT_NAMESPACE, entries, datacenter, trustDomain });
  }
}

/**
 * The services whose chain can involve one of `changed` (`namespace/service`): the services
 * themselves and every service whose entries lead to them through redirects, splits, routes or
 * failover, transitively. A write needs to compile only these chains, not every chain.
 */
export function servicesReaching(entries: readonly ConfigEntry[], changed: ReadonlySet<string>): { namespace: string; service: string }[] {
  // Reverse edges: named service -> the services whose entries name it.
  const namedBy = new Map<string, Set<string>>();
  for (const e of entries) {
    if (e.Kind === 'proxy-defaults') continue;
    const ns = entryNamespace(e);
    const from = `${ns}/${e.Name}`;
    for (const to of servicesNamedBy([e])) {
      const key = `${to.namespace}/${to.service}`;
      if (key === from) continue;
      if (!namedBy.has(key)) namedBy.set(key, new Set());
      namedBy.get(key)!.add(from);
    }
  }
  const seen = new Set<string>(changed);
  const queue = [...changed];
  while (queue.length) {
    for (const from of namedBy.get(queue.pop()!) ?? []) {
      if (!seen.has(from)) { seen.add(from); queue.push(from); }
    }
  }
  return [...seen].sort().map((k) => ({ namespace: k.slice(0, k.indexOf('/')), service: k.slice(k.indexOf('/') + 1) }));
}
