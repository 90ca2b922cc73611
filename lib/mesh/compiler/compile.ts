/**
 * The discovery-chain compiler: a pure function from configuration entries to the chain a
 * proxy follows, after the mesh system's own compiler (routers, then splitters, then one
 * resolver per distinct target; redirects, default subsets, failover; overrides last).
 */
import { ChainNode, ChainOverrides, CompileError, CompiledChain, CompiledRoute, CompiledTarget } from './chain';
import { durationNs, formatGoDuration } from './duration';
import {
  ConfigEntry, DEFAULT_NAMESPACE, entryNamespace, PROXY_DEFAULTS, ProxyDefaultsEntry, rawField, ResolverSubset, SERVICE_DEFAULTS,
  SERVICE_RESOLVER, SERVICE_ROUTER, SERVICE_SPLITTER, ServiceDefaultsEntry, ServiceResolverEntry, ServiceRoute, ServiceRouterEntry,
  ServiceSplitterEntry,
} from './entries';
import { customizationHash } from './hash';
import { scaleWeight } from './validate';

/** What to compile. */
export interface CompileRequest {
  /** The service whose chain is compiled. */
  readonly service: string;
  /** Every configuration entry known (all namespaces); only related ones are used. */
  readonly entries: readonly ConfigEntry[];
  /** The datacenter used as the basis of compilation (`compile-dc`, else the agent's). */
  readonly datacenter: string;
  /** The trust domain of SNI names, `<cluster id>.<domain>`. */
  readonly trustDomain: string;
  /** The source namespace. @default "default" */
  readonly namespace?: string;
  /** The queried agent's datacenter: its targets use no mesh gateway. @default datacenter */
  readonly useInDatacenter?: string;
  readonly overrides?: ChainOverrides;
  /**
   * The shape of the answer: the spec's, or that of a Consul 1.16 server (targets and nodes named with
   * a partition, `v1.web.default.default.dc1` and `router:web.default.default`; mesh gateway modes on
   * local targets too; a chain-level `Default`; each split's `Definition`). @default "spec"
   */
  readonly shape?: ChainShape;
}

/** The shapes of compiled chains a supported server answers. */
export type ChainShape = 'spec' | 'consul-1.16';
/** The partition of every name in the 1.16 shape (the Community Edition has only this one). */
export const DEFAULT_PARTITION = 'default';

/** A chain and the services (`<namespace>/<name>`) whose entries were consulted to build it. */
export interface CompileResult {
  readonly chain: CompiledChain;
  readonly services: string[];
}

export const DEFAULT_CONNECT_TIMEOUT_NS = 5e9;
const L7 = new Set(['http', 'http2', 'grpc']);

/** Whether a protocol permits routers and splitters. */
export function isL7Protocol(protocol: string): boolean {
  return L7.has(protocol);
}

interface Target {
  id: string;
  service: string;
  subset: string;
  namespace: string;
  datacenter: string;
  mode: string;
  subsetDef?: ResolverSubset;
  external: boolean;
  sni: string;
  name: string;
}

/** Compiles the discovery chain of one service; throws `CompileError`. */
export function compileDiscoveryChain(req: CompileRequest): CompiledChain {
  return compileWithTrace(req).chain;
}

/** `compileDiscoveryChain`, also telling which services' entries were consulted (to wake blocking queries). */
export function compileWithTrace(req: CompileRequest): CompileResult {
  const c = new Compiler(req);
  const chain = c.compile();
  return { chain, services: [...c.touched].sort() };
}

class Compiler {
  public readonly touched = new Set<string>();
  private readonly ns: string;
  private readonly dc: string;
  private readonly useInDc: string;
  private readonly overrideProtocol: string;
  private readonly overrideTimeout: number;
  private readonly overrideMode: string;
  private readonly disableAdvancedRouting: boolean;
  private readonly byKey = new Map<string, ConfigEntry>();
  private readonly proxyDefaults?: ProxyDefaultsEntry;

  private protocol = '';
  private usesAdvancedRouting = false;
  private readonly customizedBy = { protocol: false, timeout: false, mode: false };
  private readonly loadedTargets = new Map<string, Target>();
  private readonly retained = new Set<string>();
  private readonly nodes = new Map<string, ChainNode>();
  private readonly splitterNodes = new Map<string, ChainNode>();
  private readonly resolveNodes = new Map<string, ChainNode>();
  private topNode?: ChainNode;
  /** The 1.16 shape: names carry the partition. */
  private readonly partitioned: boolean;

  constructor(private readonly req: CompileRequest) {
    this.partitioned = req.shape === 'consul-1.16';
    if (!req.service) throw new CompileError('service name is required');
    this.ns = req.namespace || DEFAULT_NAMESPACE;
    this.dc = req.datacenter;
    this.useInDc = req.useInDatacenter || req.datacenter;
    const o = req.overrides ?? {};
    this.overrideProtocol = o.OverrideProtocol ?? '';
    try {
      this.overrideTimeout = durationNs(o.OverrideConnectTimeout);
    } catch (e) {
      throw new CompileError((e as Error).message);
    }
    this.overrideMode = o.OverrideMeshGateway?.Mode ?? '';
    this.disableAdvancedRouting = this.overrideProtocol !== '' && !isL7Protocol(this.overrideProtocol);
    for (const e of req.entries) {
      if (e.Kind === PROXY_DEFAULTS) { if (e.Name === 'global') this.proxyDefaults = e; continue; }
      this.byKey.set(`${e.Kind}/${entryNamespace(e)}/${e.Name}`, e);
    }
  }

  private entry<T extends ConfigEntry>(kind: string, ns: string, name: string): T | undefined {
    this.touched.add(`${ns}/${name}`);
    return this.byKey.get(`${kind}/${ns}/${name}`) as T | undefined;
  }

  public compile(): CompiledChain {
    this.assembleChain();
    const top = this.topNode!;
    this.detectCircularReferences(top);
    this.flattenAdjacentSplitterNodes();
    this.removeUnusedNodes(top);
    if (!isL7Protocol(this.protocol) && this.usesAdvancedRouting) {
      throw new CompileError(`discovery chain "${this.req.service}" uses a protocol "${this.protocol}" that does not permit advanced routing or splitting behavior`);
    }
    if (this.overrideProtocol && this.overrideProtocol !== this.protocol) {
      this.protocol = this.overrideProtocol;
      this.customizedBy.protocol = true;
    }
    const cb = this.customizedBy;
    const hash = cb.protocol || cb.timeout || cb.mode
      ? customizationHash({
        meshGatewayMode: cb.mode ? this.overrideMode : '',
        protocol: cb.protocol ? this.overrideProtocol : '',
        connectTimeoutNs: cb.timeout ? this.overrideTimeout : 0,
      })
      : undefined;

    const nodes: Record<string, ChainNode> = {};
    for (const k of [...this.nodes.keys()].sort()) nodes[k] = this.nodes.get(k)!;
    const targets: Record<string, CompiledTarget> = {};
    for (const id of [...this.retained].sort()) targets[id] = renderTarget(this.loadedTargets.get(id)!, this.partitioned);
    if (this.partitioned) return this.partitionedChain(top, nodes, targets, hash);
    return {
      ServiceName: this.req.service,
      Namespace: this.ns,
      Datacenter: this.dc,
      ...(hash ? { CustomizationHash: hash } : {}),
      Protocol: this.protocol,
      StartNode: mapKey(top),
      Nodes: nodes,
      Targets: targets,
    };
  }

  /** The chain as Consul 1.16 answers it. */
  private partitionedChain(top: ChainNode, nodes: Record<string, ChainNode>, targets: Record<string, CompiledTarget>, hash?: string): CompiledChain {
    for (const t of Object.values(targets)) {
      const node = Object.values(nodes).find((n) => n.Resolver?.Target === t.ID || n.Resolver?.Failover?.Targets.includes(t.ID));
      if (node) (t as CompiledTarget & { ConnectTimeout?: string }).ConnectTimeout = node.Resolver!.ConnectTimeout;
    }
    const isDefault = top.Type === 'resolver' && !!top.Resolver?.Default;
    const ordered: Record<string, CompiledTarget> = {};
    for (const [id, t] of Object.entries(targets)) {
      const { ConnectTimeout, ...rest } = t as CompiledTarget & { ConnectTimeout?: string };
      ordered[id] = { ...(ConnectTimeout ? { ConnectTimeout } : {}), ...rest } as CompiledTarget;
    }
    return {
      ServiceName: this.req.service,
      Namespace: this.ns,
      Partition: DEFAULT_PARTITION,
      Datacenter: this.dc,
      ...(hash ? { CustomizationHash: hash } : {}),
      ...(isDefault ? { Default: true } : {}),
      Protocol: this.protocol,
      StartNode: mapKey(top),
      Nodes: nodes,
      Targets: ordered,
    } as CompiledChain;
  }

  private assembleChain(): void {
    let router = this.entry<ServiceRouterEntry>(SERVICE_ROUTER, this.ns, this.req.service);
    if (router && this.disableAdvancedRouting) {
      router = undefined;
      this.customizedBy.protocol = true;
    }
    if (!router) {
      this.topNode = this.getSplitterOrResolverNode(this.newTarget(this.req.service, '', '', ''));
      return;
    }
    const routerNs = entryNamespace(router);
    const node: ChainNode = { Type: 'router', Name: this.partitioned ? `${router.Name}.${routerNs}.${DEFAULT_PARTITION}` : router.Name, Routes: [] };
    this.usesAdvancedRouting = true;
    this.recordServiceProtocol(routerNs, router.Name);
    for (const route of router.Routes ?? []) {
      const dest = route.Destination ?? {};
      const svc = dest.Service || this.req.service;
      const destNs = dest.Namespace || routerNs;
      const next = dest.ServiceSubset
        ? this.getResolverNode(this.newTarget(svc, dest.ServiceSubset, destNs, ''), false)
        : this.getSplitterOrResolverNode(this.newTarget(svc, '', destNs, ''));
      node.Routes!.push({ Definition: renderDefinition(route), NextNode: mapKey(next) });
    }
    // Unmatched traffic goes on to the service itself.
    const catchAll: ServiceRoute = {
      Match: { HTTP: { PathPrefix: '/' } },
      Destination: this.partitioned ? { Service: router.Name, Namespace: routerNs, Partition: DEFAULT_PARTITION } as ServiceRoute['Destination'] : { Service: router.Name },
    };
    const next = this.getSplitterOrResolverNode(this.newTarget(router.Name, '', routerNs, ''));
    node.Routes!.push({ Definition: catchAll, NextNode: mapKey(next) } as CompiledRoute);
    this.topNode = this.recordNode(node);
  }

  private getSplitterOrResolverNode(t: Target): ChainNode {
    return this.getSplitterNode(t.namespace, t.service) ?? this.getResolverNode(t, false);
  }

  private splitterName(ns: string, service: string): string {
    if (this.partitioned) return `${service}.${ns}.${DEFAULT_PARTITION}`;
    return ns === this.ns ? service : `${service}.${ns}`;
  }

  private getSplitterNode(ns: string, service: string): ChainNode | undefined {
    const name = this.splitterName(ns, service);
    const prev = this.splitterNodes.get(name);
    if (prev) return prev;
    let splitter = this.entry<ServiceSplitterEntry>(SERVICE_SPLITTER, ns, service);
    if (splitter && this.disableAdvancedRouting) {
      splitter = undefined;
      this.customizedBy.protocol = true;
    }
    if (!splitter) return undefined;
    const node: ChainNode = { Type: 'splitter', Name: name, Splits: [] };
    // Recorded before recursing, so that a loop between splitters ends (and is reported later).
    this.splitterNodes.set(name, node);
    this.recordNode(node);
    for (const split of splitter.Splits ?? []) {
      const svc = split.Service || service;
      const splitNs = split.Namespace || ns;
      const compiled = {
        ...(this.partitioned ? { Definition: Object.fromEntries(Object.entries(split).filter(([, v]) => !isEmpty(v))) } : {}),
        Weight: split.Weight ?? 0, NextNode: '',
      };
      node.Splits!.push(compiled);
      if (!(svc === service && splitNs === ns) && !split.ServiceSubset) {
        const next = this.getSplitterNode(splitNs, svc);
        if (next) { compiled.NextNode = mapKey(next); continue; }
      }
      compiled.NextNode = mapKey(this.getResolverNode(this.newTarget(svc, split.ServiceSubset ?? '', splitNs, ''), false));
    }
    this.usesAdvancedRouting = true;
    return node;
  }

  private getResolverNode(target: Target, recursedForFailover: boolean): ChainNode {
    const redirectHistory = new Set<string>();
    const redirectOrder: string[] = [];
    let resolver: ServiceResolverEntry;
    for (;;) {
      const prev = this.resolveNodes.get(target.id);
      if (prev) return prev;
      this.recordServiceProtocol(target.namespace, target.service);
      resolver = this.entry<ServiceResolverEntry>(SERVICE_RESOLVER, target.namespace, target.service)
        ?? { Kind: 'service-resolver', Name: target.service };
      if (redirectHistory.has(target.id)) {
        redirectOrder.push(target.id);
        throw new CompileError(`detected circular resolver redirect: [${redirectOrder.join(' -> ')}]`);
      }
      redirectHistory.add(target.id);
      redirectOrder.push(target.id);
      const r = resolver.Redirect;
      if (r) {
        const redirected = this.rewriteTarget(target, r.Service, r.ServiceSubset, r.Namespace, r.Datacenter);
        if (redirected.id !== target.id) { target = redirected; continue; }
      }
      if (!target.subset && resolver.DefaultSubset) {
        target = this.rewriteTarget(target, '', resolver.DefaultSubset, '', '');
        continue;
      }
      break;
    }
    const subsets = resolver.Subsets ?? {};
    if (target.subset && !Object.prototype.hasOwnProperty.call(subsets, target.subset)) {
      throw new CompileError(`service "${target.service}" does not have a subset named "${target.subset}"`);
    }

    let timeout = durationNs(resolver.ConnectTimeout);
    if (timeout < 1) timeout = DEFAULT_CONNECT_TIMEOUT_NS;
    if (this.overrideTimeout > 0 && timeout !== this.overrideTimeout) {
      timeout = this.overrideTimeout;
      this.customizedBy.timeout = true;
    }
    const node: ChainNode = {
      Type: 'resolver',
      Name: target.id,
      Resolver: {
        ...(isDefaultResolver(resolver) ? { Default: true } : {}),
        ConnectTimeout: formatGoDuration(timeout),
        Target: target.id,
      },
    };
    target.subsetDef = target.subset ? subsets[target.subset] : undefined;
    const serviceDefaults = this.entry<ServiceDefaultsEntry>(SERVICE_DEFAULTS, target.namespace, target.service);
    if (serviceDefaults?.ExternalSNI) {
      target.sni = serviceDefaults.ExternalSNI;
      target.external = true;
    }
    // The spec's shape: local targets use no gateway. Consul 1.16 sets the mode on every target.
    if (target.datacenter === this.useInDc && !this.partitioned) {
      target.mode = '';
    } else {
      target.mode = serviceDefaults?.MeshGateway?.Mode ?? '';
      if (!target.mode) target.mode = this.proxyDefaults?.MeshGateway?.Mode ?? '';
      if (this.overrideMode && target.mode !== this.overrideMode) {
        target.mode = this.overrideMode;
        this.customizedBy.mode = true;
      }
    }
    this.retained.add(target.id);
    // A failover target is resolved (redirects, default subset) but gets no node of its own.
    if (recursedForFailover) return node;
    this.resolveNodes.set(target.id, node);
    this.recordNode(node);

    const failovers = resolver.Failover ?? {};
    const failover = failovers[target.subset] ?? failovers['*'];
    if (failover) {
      const candidates = (failover.Datacenters ?? []).length
        ? failover.Datacenters!.map((dc) => this.rewriteTarget(target, failover.Service, failover.ServiceSubset, failover.Namespace, dc))
        : [this.rewriteTarget(target, failover.Service, failover.ServiceSubset, failover.Namespace, '')];
      const others = candidates.filter((t) => t.id !== target.id);
      if (others.length) {
        node.Resolver!.Failover = { Targets: others.map((t) => this.getResolverNode(t, true).Resolver!.Target) };
      }
    }
    return node;
  }

  private recordServiceProtocol(ns: string, service: string): void {
    const sd = this.entry<ServiceDefaultsEntry>(SERVICE_DEFAULTS, ns, service);
    if (sd) { this.recordProtocol(ns, service, sd.Protocol ?? ''); return; }
    const config = this.proxyDefaults?.Config;
    const p = config ? rawField(config, 'protocol') : undefined;
    this.recordProtocol(ns, service, typeof p === 'string' ? p : '');
  }

  private recordProtocol(ns: string, service: string, protocol: string): void {
    protocol = protocol === '' ? 'tcp' : protocol.toLowerCase();
    if (this.protocol === '') {
      this.protocol = protocol;
    } else if (this.protocol !== protocol) {
      const sid = ns === DEFAULT_NAMESPACE ? service : `${ns}/${service}`;
      throw new CompileError(`discovery chain "${this.req.service}" uses inconsistent protocols; service "${sid}" has "${protocol}" which is not "${this.protocol}"`);
    }
  }

  private newTarget(service: string, subset: string, namespace: string, datacenter: string): Target {
    const ns = namespace || this.ns;
    const dc = datacenter || this.dc;
    const base = subset ? `${subset}.${service}.${ns}` : `${service}.${ns}`;
    const id = this.partitioned ? `${base}.${DEFAULT_PARTITION}.${dc}` : `${base}.${dc}`;
    const prev = this.loadedTargets.get(id);
    if (prev) return prev;
    // SNI names the partition only outside the default one: never, here.
    const sni = `${base}.${dc}.internal.${this.req.trustDomain}`;
    const t: Target = { id, service, subset, namespace: ns, datacenter: dc, mode: '', external: false, sni, name: sni };
    this.loadedTargets.set(id, t);
    return t;
  }

  private rewriteTarget(t: Target, service?: string, subset?: string, namespace?: string, datacenter?: string): Target {
    let svc = t.service;
    let sub = t.subset;
    if (service && service !== svc) { svc = service; sub = ''; }
    if (subset) sub = subset;
    return this.newTarget(svc, sub, namespace || t.namespace, datacenter || t.datacenter);
  }

  private recordNode(node: ChainNode): ChainNode {
    this.nodes.set(mapKey(node), node);
    return node;
  }

  private detectCircularReferences(top: ChainNode): void {
    const path: string[] = [];
    const visit = (key: string): void => {
      if (path.includes(key)) {
        throw new CompileError(`detected circular reference: [${[...path, key].join(' -> ')}]`);
      }
      path.push(key);
      const node = this.nodes.get(key)!;
      for (const next of [...(node.Routes ?? []), ...(node.Splits ?? [])]) visit(next.NextNode);
      path.pop();
    };
    visit(mapKey(top));
  }

  /** A split into another splitter becomes that splitter's splits, weights multiplied (to 0.01). */
  private flattenAdjacentSplitterNodes(): void {
    for (let changed = true; changed;) {
      changed = false;
      for (const node of this.nodes.values()) {
        if (node.Type !== 'splitter') continue;
        const fixed: typeof node.Splits = [];
        let nodeChanged = false;
        for (const split of node.Splits!) {
          const next = this.nodes.get(split.NextNode)!;
          if (next.Type !== 'splitter') { fixed.push(split); continue; }
          nodeChanged = true;
          for (const inner of next.Splits!) {
            // The 1.16 shape keeps the inner split's own definition.
            const def = (inner as { Definition?: unknown }).Definition;
            fixed.push({ ...(def ? { Definition: def } : {}), Weight: scaleWeight((split.Weight * inner.Weight) / 100) / 100, NextNode: inner.NextNode });
          }
        }
        if (nodeChanged) { node.Splits = fixed; changed = true; }
      }
    }
  }

  private removeUnusedNodes(top: ChainNode): void {
    const visited = new Set<string>();
    const todo = [mapKey(top)];
    while (todo.length) {
      const key = todo.pop()!;
      if (visited.has(key)) continue;
      visited.add(key);
      const node = this.nodes.get(key);
      if (!node) throw new CompileError(`compilation references non-retained node "${key}"`);
      for (const next of [...(node.Routes ?? []), ...(node.Splits ?? [])]) todo.push(next.NextNode);
    }
    for (const key of [...this.nodes.keys()]) if (!visited.has(key)) this.nodes.delete(key);
  }
}

function mapKey(n: ChainNode): string {
  return `${n.Type}:${n.Name}`;
}

/** A resolver that sets nothing behaves as no resolver at all. */
function isDefaultResolver(r: ServiceResolverEntry): boolean {
  return !r.DefaultSubset && Object.keys(r.Subsets ?? {}).length === 0 && !r.Redirect
    && Object.keys(r.Failover ?? {}).length === 0 && durationNs(r.ConnectTimeout) === 0;
}

/** The fields of a route destination the compiled chain carries (the spec's list; no `Namespace`). */
const DESTINATION_FIELDS = [
  'Service', 'ServiceSubset', 'PrefixRewrite', 'RequestTimeout', 'NumRetries', 'RetryOnConnectFailure', 'RetryOnStatusCodes',
] as const;

/** Go's `omitempty`: an empty string, false, 0, null or an empty list is left out. */
function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0);
}

/** A route as the chain shows it: its match as given, its destination reduced to the listed fields that are set. */
function renderDefinition(route: ServiceRoute): ServiceRoute {
  if (!route.Destination) return route;
  const dest: Record<string, unknown> = {};
  for (const f of DESTINATION_FIELDS) if (!isEmpty(route.Destination[f])) dest[f] = route.Destination[f];
  return { ...route, Destination: dest };
}

function renderTarget(t: Target, partitioned: boolean): CompiledTarget {
  return {
    ID: t.id,
    Service: t.service,
    ...(t.subset ? { ServiceSubset: t.subset } : {}),
    Namespace: t.namespace,
    ...(partitioned ? { Partition: DEFAULT_PARTITION } : {}),
    Datacenter: t.datacenter,
    MeshGateway: t.mode ? { Mode: t.mode } : {},
    Subset: {
      ...(t.subsetDef?.Filter ? { Filter: t.subsetDef.Filter } : {}),
      ...(t.subsetDef?.OnlyPassing ? { OnlyPassing: true } : {}),
    },
    ...(t.external ? { External: true } : {}),
    ...(partitioned ? { TransparentProxy: {} } : {}),
    SNI: t.sni,
    Name: t.name,
  };
}
