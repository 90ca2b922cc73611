/**
 * The traffic diff of a plan: before anything is written, the chain of every service that the
 * planned configuration-entry changes touch is compiled before and after, and the plan shows what
 * changes for traffic. A change that would break compilation fails the plan with the compile error.
 *
 * "Before" is the entries the mesh API holds now (all kinds, every namespace, read through the
 * plan's mesh client); when they cannot be read, the items' last-applied specs stand in for them.
 * "After" is "before" with each planned create, update, replace and delete applied.
 */
import { HttpClient } from '../../core/http/http-client';
import { PlanHook, PlanHookItem, PlanHookResult } from '../../core/engine/registry';
import { diffChains } from './chain-diff';
import { MeshClient } from '../client/mesh-client';
import { CompiledChain, CompileError } from '../compiler/chain';
import { ChainShape, compileWithTrace } from '../compiler/compile';
import { CHAIN_ENTRY_KINDS, ConfigEntry, decodeReadEntry, entryKey } from '../compiler/entries';
import { servicesNamedBy } from '../compiler/graph';
import { EntryValidationError, validateEntry } from '../compiler/validate';
import { ConfigEntrySchema } from '../config-entry/config-entry.schema';
import { specToEntry } from '../config-entry/entry-spec';
import { PROXY_DEFAULTS } from '../config-entry/proxy-defaults.schema';
import { SERVICE_DEFAULTS } from '../config-entry/service-defaults.schema';
import { SERVICE_RESOLVER } from '../config-entry/service-resolver.schema';
import { SERVICE_ROUTER } from '../config-entry/service-router.schema';
import { SERVICE_SPLITTER } from '../config-entry/service-splitter.schema';

/** Construct kinds and the schemas of the entries they manage. */
export const ENTRY_SCHEMA_OF: Record<string, ConfigEntrySchema> = Object.fromEntries(
  [SERVICE_DEFAULTS, PROXY_DEFAULTS, SERVICE_RESOLVER, SERVICE_SPLITTER, SERVICE_ROUTER].map((s) => [s.kind, s]));

const CHANGING = new Set(['create', 'update', 'replace', 'delete', 'adopt']);
/** Used when the API cannot tell its own (only SNI names depend on them, which the diff does not show). */
const FALLBACK: { datacenter: string; trustDomain: string; shape?: ChainShape } = { datacenter: 'dc1', trustDomain: 'unknown.consul' };

/** Everything the hook needs from the API; the defaults read it through the plan's mesh client. */
export interface MeshView {
  /** Every entry the API holds, or undefined when they cannot be read. */
  entries(): Promise<ConfigEntry[] | undefined>;
  /**
   * The agent's datacenter, the trust domain and the shape of the server's chains (the spec's, or a
   * Consul 1.16 server's with partitions), read from the chain of a service the plan touches.
   */
  basis(service: string, namespace: string): Promise<{ datacenter: string; trustDomain: string; shape?: ChainShape }>;
}

/** A view of the API through an HttpClient (undefined: no client, nothing to read). */
export function apiView(http: HttpClient | undefined): MeshView {
  const client = http ? new MeshClient(http) : undefined;
  return {
    async entries() {
      if (!client) return undefined;
      try {
        // Every namespace (`ns=*`); a Community Edition server refuses any `ns` (400) and has one namespace.
        // The first kind's list tells which; the other kinds' lists then go out together.
        const list = (kind: string, namespace: string | undefined) => client.listConfigEntries(kind, namespace ? { namespace } : {});
        const [first, ...rest] = CHAIN_ENTRY_KINDS;
        let namespace: string | undefined = '*';
        let firstListed;
        try {
          firstListed = await list(first, namespace);
        } catch (e) {
          if ((e as { status?: number }).status !== 400) throw e;
          namespace = undefined;
          firstListed = await list(first, namespace);
        }
        const listed = [firstListed, ...await Promise.all(rest.map((kind) => list(kind, namespace)))];
        return listed.flatMap((l) => l.value.map(decodeReadEntry));
      } catch {
        return undefined;
      }
    },
    async basis(service, namespace) {
      if (!client) return FALLBACK;
      try {
        const chain = (await client.discoveryChain(service, { namespace: namespace === 'default' ? undefined : namespace })).value;
        const target = Object.values(chain.Targets)[0];
        const trustDomain = target?.Name.split('.internal.')[1];
        const shape: ChainShape = chain.Partition !== undefined ? 'consul-1.16' : 'spec';
        return { datacenter: chain.Datacenter, trustDomain: trustDomain || FALLBACK.trustDomain, shape };
      } catch {
        return FALLBACK;
      }
    },
  };
}

function entryOf(item: PlanHookItem, spec: Record<string, unknown> | undefined): ConfigEntry | undefined {
  if (!spec) return undefined;
  return specToEntry(ENTRY_SCHEMA_OF[item.kind], spec);
}

/**
 * The basis of the chains (datacenter, trust domain, shape), read from the chain of the first
 * service the changes name: the same service as the diff names first (its changed entries' keys).
 */
function basisOf(mesh: readonly PlanHookItem[], view: MeshView): ReturnType<MeshView['basis']> {
  for (const i of mesh) {
    const e = entryOf(i, i.before) ?? (i.action === 'delete' ? undefined : entryOf(i, i.after));
    if (e) {
      const [, ns, name] = entryKey(e).split('/');
      return view.basis(name, ns);
    }
  }
  return Promise.resolve(FALLBACK);
}

/** The traffic diff of a set of planned items against a view of the API. */
export async function trafficDiff(items: readonly PlanHookItem[], view: MeshView): Promise<PlanHookResult> {
  const mesh = items.filter((i) => ENTRY_SCHEMA_OF[i.kind] && CHANGING.has(i.action));
  if (!mesh.length) return { notes: [], errors: [] };
  const errors: string[] = [];

  // The chain that tells the server's datacenter and shape is read while the entries are listed.
  const basis = basisOf(mesh, view);
  const before = new Map<string, ConfigEntry>();
  const current = await view.entries();
  if (current) {
    for (const e of current) before.set(entryKey(e), e);
  } else {
    for (const i of items) {
      const e = ENTRY_SCHEMA_OF[i.kind] ? entryOf(i, i.before) : undefined;
      if (e) before.set(entryKey(e), e);
    }
  }
  const after = new Map(before);
  const changedKeys = new Set<string>();
  for (const i of mesh) {
    const old = entryOf(i, i.before);
    const next = i.action === 'delete' ? undefined : entryOf(i, i.after);
    if (old) { after.delete(entryKey(old)); changedKeys.add(entryKey(old)); }
    if (next) {
      try {
        validateEntry(next);
      } catch (e) {
        if (e instanceof EntryValidationError) { errors.push(`${i.address}: ${e.message}`); continue; }
        throw e;
      }
      after.set(entryKey(next), next);
      changedKeys.add(entryKey(next));
    }
  }
  if (errors.length) { await basis; return { notes: [], errors }; }

  const changed = [...changedKeys].map((k) => k.split('/'));
  const proxyChanged = changed.some(([kind]) => kind === 'proxy-defaults');
  const changedServices = new Set(changed.map(([, ns, name]) => `${ns}/${name}`));
  const { datacenter, trustDomain, shape } = await basis;
  const compile = (entries: ConfigEntry[], namespace: string, service: string) => {
    try {
      return compileWithTrace({ service, namespace, entries, datacenter, trustDomain, shape });
    } catch (e) {
      if (e instanceof CompileError) return e;
      throw e;
    }
  };

  const notes: string[] = [];
  const beforeList = [...before.values()];
  const afterList = [...after.values()];
  for (const { namespace, service } of servicesNamedBy([...beforeList, ...afterList])) {
    const b = compile(beforeList, namespace, service);
    const a = compile(afterList, namespace, service);
    const touches = (r: typeof a) => !(r instanceof CompileError) && r.services.some((s) => changedServices.has(s));
    if (!proxyChanged && !touches(b) && !touches(a) && !changedServices.has(`${namespace}/${service}`)) continue;
    const label = namespace === 'default' ? service : `${namespace}/${service}`;
    if (a instanceof CompileError) {
      if (!(b instanceof CompileError)) {
        errors.push(`traffic ${label}: the planned change breaks the discovery chain: ${a.message}${remedy(a, items, namespace, service)}`);
      }
      continue;
    }
    if (b instanceof CompileError) {
      notes.push(`traffic ${label}: the discovery chain compiles again (it failed: ${b.message})`);
      continue;
    }
    for (const line of diffChains(b.chain as CompiledChain, a.chain)) notes.push(`traffic ${label}: ${line}`);
  }
  return { notes, errors };
}

const L7_ROUTING = new Set(['mesh.ServiceSplitter', 'mesh.ServiceRouter']);

/**
 * For a chain whose protocol permits no routing or splitting (tcp): the constructs that route or
 * split it, and the fix, so that the error says what to change and where.
 */
function remedy(error: CompileError, items: readonly PlanHookItem[], namespace: string, service: string): string {
  if (!/does not permit advanced routing or splitting/.test(error.message)) return '';
  const forService = (i: PlanHookItem) => {
    const spec = i.after ?? i.before;
    return spec !== undefined && spec.name === service && String(spec.namespace ?? 'default') === namespace;
  };
  const present = (i: PlanHookItem) => i.action !== 'delete' && forService(i);
  const routing = items.filter((i) => L7_ROUTING.has(i.kind) && present(i)).map((i) => `${i.address} (${i.kind})`);
  const defaults = items.find((i) => i.kind === 'mesh.ServiceDefaults' && present(i));
  const who = routing.length ? `${routing.join(' and ')} ${routing.length > 1 ? 'need' : 'needs'} an HTTP-family protocol for service "${service}"` : `service "${service}" needs an HTTP-family protocol`;
  const fix = defaults
    ? `set protocol: HTTP (or HTTP2, GRPC) on ${defaults.address} (mesh.ServiceDefaults)`
    : `add a mesh.ServiceDefaults with name: "${service}"${namespace === 'default' ? '' : `, namespace: "${namespace}"`} and protocol: HTTP (or HTTP2, GRPC)`;
  return `; ${who}: ${fix}`;
}

/** The plan hook: the traffic diff over the plan's mesh client. */
export const trafficDiffHook: PlanHook = async ({ items, http }) => trafficDiff(items, apiView(http('mesh')));
