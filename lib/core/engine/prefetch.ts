import { DesiredResource } from '../model';
import { StateStore } from '../state/state-store';
import { ApiClients } from './api-clients';
import { HttpClient, HttpRequest } from '../http/http-client';
import { ApiSemaphores, Semaphore } from './graph';
import { Observed, PrefetchWant, ResourceHandler } from './handler';
import { resourceHandler } from './registry';
import { resolveSpec, UNKNOWN } from './resolve-spec';

/** The batch an object belongs to: its kind and its provider. */
export function prefetchKey(r: DesiredResource): string {
  return `${r.kind}|${r.provider.api}|${r.provider.address ?? ''}|${r.provider.addressEnv}|${r.provider.tokenEnv}`;
}

/** What a plan learned in batches before reading objects one by one: by batch, id -> object or known absence. */
export type PrefetchCache = Map<string, Map<string, Observed | null>>;

/**
 * Offers each kind's handler the objects the plan will read (grouped by provider), so that a
 * list of whole objects or a folder's keys replaces one read per object where that costs less.
 * Objects whose identity depends on a reference are left to be read one by one.
 */
export async function prefetch(resources: Record<string, DesiredResource>, state: StateStore, clients: ApiClients,
  sems: ApiSemaphores, refresh: boolean): Promise<PrefetchCache> {
  const groups = new Map<string, { r: DesiredResource; handler: ResourceHandler; wants: PrefetchWant[] }>();
  for (const [address, r] of Object.entries(resources)) {
    if (r.dataSource) continue;
    const handler = resourceHandler(r.kind);
    if (!handler.prefetch) continue;
    const rec = state.record(address);
    if (rec && (rec.kind !== r.kind || rec.dataSource)) continue;
    const managed = rec?.status === 'created';
    if (managed && !refresh) continue;
    const resolved = resolveSpec(r.spec, r.path, () => UNKNOWN);
    if (resolved.hasUnknown) continue;
    const id = managed ? rec!.id : handler.naturalId(resolved.value);
    if (!id) continue;
    const key = prefetchKey(r);
    const g = groups.get(key) ?? { r, handler, wants: [] };
    g.wants.push({ id, desired: resolved.value, ...(managed ? { prior: { id, spec: rec!.spec, outputs: rec!.outputs } } : {}) });
    groups.set(key, g);
  }
  const cache: PrefetchCache = new Map();
  await Promise.all([...groups.values()].map(async (g) => {
    // Each request of a batch takes a slot of its API, not the batch as a whole: a handler may send
    // several (a KV LIST per folder) at once, within the same parallelism as the reads.
    const found = await g.handler.prefetch!({ address: `${g.r.kind} (batch)`, http: limited(clients.for(g.r.provider), sems.for(g.r.provider.api)) }, g.wants);
    cache.set(prefetchKey(g.r), found);
  }));
  return cache;
}

/** The handler with reads answered from the cache where the batch knew the object. */
export function withPrefetched(handler: ResourceHandler, known: Map<string, Observed | null> | undefined): ResourceHandler {
  if (!known?.size) return handler;
  // One per batch and handler, not one copy of the handler per object.
  const made = wrappedHandlers.get(known);
  if (made?.handler === handler) return made.wrapped;
  const wrapped = prefetchedHandler(handler, known);
  wrappedHandlers.set(known, { handler, wrapped });
  return wrapped;
}

const wrappedHandlers = new WeakMap<Map<string, Observed | null>, { handler: ResourceHandler; wrapped: ResourceHandler }>();

function prefetchedHandler(handler: ResourceHandler, known: Map<string, Observed | null>): ResourceHandler {
  return {
    ...handler,
    read: async (ctx, id, desired, prior) => {
      if (known.has(id)) return known.get(id) ?? undefined;
      return handler.read(ctx, id, desired, prior);
    },
  };
}

/** The client with every request run in a slot of `sem`. */
function limited(http: HttpClient, sem: Semaphore): HttpClient {
  const view = Object.create(http) as HttpClient;
  view.request = <T>(req: HttpRequest) => sem.run(() => http.request<T>(req));
  return view;
}
