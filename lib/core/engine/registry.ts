import { ApiProfile, registerApiProfile } from '../http/api-profile';
import { HttpClient } from '../http/http-client';
import { LOOKUP_PREFIX } from '../model';
import { PreflightCheck, registerPreflight } from './preflight';
import { ApiName, DataSourceHandler, PermissionsOf, ResourceHandler, Spec } from './handler';
import { sensitiveFieldsOf, sensitiveOutputsOf } from '../schema/kind-schema';

/** One planned object, as a plan hook sees it. */
export interface PlanHookItem {
  readonly address: string;
  readonly kind: string;
  /** create, update, replace, delete, adopt, noop, forget. */
  readonly action: string;
  /** The resolved spec last applied (undefined when new). Secrets are never given to hooks: they are masked. */
  readonly before?: Spec;
  /** The resolved desired spec (undefined when deleted). */
  readonly after?: Spec;
}

/** What a plan hook adds to a stack's plan. */
export interface PlanHookResult {
  /** Lines shown under the stack's plan (e.g. what changes for traffic). */
  readonly notes: string[];
  /** Problems that fail the plan before anything is written. */
  readonly errors: string[];
}

/** A domain's look at a whole plan (the mesh shows what happens to traffic). */
export type PlanHook = (input: { stack: string; items: PlanHookItem[]; http: (api: ApiName) => HttpClient | undefined })
  => Promise<PlanHookResult>;

const planHooks: PlanHook[] = [];

/** Registers a plan hook. */
export function registerPlanHook(hook: PlanHook): void {
  planHooks.push(hook);
}

export function registeredPlanHooks(): readonly PlanHook[] {
  return planHooks;
}

const resources = new Map<string, ResourceHandler>();
const dataSources = new Map<string, DataSourceHandler>();

/** Registers the handler of a resource kind (each domain does so for its kinds). */
export function registerResource(handler: ResourceHandler): void {
  resources.set(handler.kind, handler);
}

/** Registers the handler of a data source kind. */
export function registerDataSource(handler: DataSourceHandler): void {
  dataSources.set(handler.kind, handler);
}

export function resourceHandler(kind: string): ResourceHandler {
  const h = resources.get(kind) ?? (loadDomainOf(kind) ? resources.get(kind) : undefined);
  if (!h) throw new Error(`unknown resource kind "${kind}" (is this converge older than the app?)`);
  return h;
}

export function dataSourceHandler(kind: string): DataSourceHandler {
  if (!dataSources.has(kind)) loadDomainOf(kind);
  const h = dataSources.get(kind) ?? (kind.startsWith(LOOKUP_PREFIX) ? lookupHandler(kind.slice(LOOKUP_PREFIX.length)) : undefined);
  if (!h) throw new Error(`unknown data source kind "${kind}"`);
  return h;
}


const lookups = new Map<string, DataSourceHandler>();

/**
 * The lookup of existing objects of a resource kind, made from its handler: reads the object by the id
 * a user gives (as `converge import` takes it) at plan time, answers its outputs, and fails the plan
 * clearly when it is absent.
 */
function lookupHandler(kind: string): DataSourceHandler {
  const cached = lookups.get(kind);
  if (cached) return cached;
  const rh = resourceHandler(kind);
  const h: DataSourceHandler = {
    kind: LOOKUP_PREFIX + kind,
    api: rh.api,
    // The object's secret fields it reads (a KV secret's data) are secrets as outputs too.
    sensitiveOutputs: rh.schema ? [...sensitiveOutputsOf(rh.schema), ...sensitiveFieldsOf(rh.schema)] : [],
    ...(rh.lookupPermissions ? { permissions: rh.lookupPermissions } : {}),
    async read(ctx, spec) {
      const given = String(spec.id);
      let id: string;
      try {
        id = rh.importId ? rh.importId(given) : given;
      } catch (e) {
        throw new Error(`${ctx.address}: ${(e as Error).message}`);
      }
      const found = await rh.read(ctx, id, spec.known as Spec | undefined);
      if (!found) throw new Error(`${ctx.address}: ${kind} "${given}" does not exist (a lookup reads an existing object; create it first, or correct the ${spec.by ?? 'id'})`);
      return { ...found.fields, ...found.outputs, id: found.id ?? id };
    },
  };
  lookups.set(kind, h);
  return h;
}

/**
 * The permissions a registered kind declares (a resource, a data source, a lookup) and its API;
 * undefined for a kind not registered or one that declares none. The domain of `api` reads them.
 */
export function declaredPermissions(kind: string): { api: ApiName; permissions: PermissionsOf } | undefined {
  loadDomainOf(kind);
  const lookupOf = kind.startsWith(LOOKUP_PREFIX) ? resources.get(kind.slice(LOOKUP_PREFIX.length)) : undefined;
  const h = resources.get(kind) ?? dataSources.get(kind) ?? (lookupOf && lookupHandler(lookupOf.kind));
  return h?.permissions ? { api: h.api, permissions: h.permissions } : undefined;
}

/** Every registered kind, so that tests can cover new kinds without a hand-kept list. */
export function registeredKinds(): { resources: string[]; dataSources: string[] } {
  for (const prefix of [...domainLoaders.keys()]) loadDomain(prefix);
  return { resources: [...resources.keys()].sort(), dataSources: [...dataSources.keys()].sort() };
}

/** The kinds of one API, registered together. */
export interface DomainKinds {
  readonly resources: readonly ResourceHandler[];
  readonly dataSources: readonly DataSourceHandler[];
  readonly planHooks: readonly PlanHook[];
  /** What the API's server says its token may do, asked before a plan is applied (`preflight.ts`). */
  readonly preflight?: { readonly api: ApiName; readonly check: PreflightCheck };
  /** How the API is talked to: token headers, TLS variables, rate limit, address probe, retry and 404 rules. */
  readonly apiProfile?: ApiProfile;
}

const registeredDomains = new Set<DomainKinds>();

/** Registers an API's kinds (once). */
export function registerDomain(domain: DomainKinds): void {
  if (registeredDomains.has(domain)) return;
  registeredDomains.add(domain);
  domain.resources.forEach(registerResource);
  domain.dataSources.forEach(registerDataSource);
  domain.planHooks.forEach(registerPlanHook);
  if (domain.preflight) registerPreflight(domain.preflight.api, domain.preflight.check);
  if (domain.apiProfile) registerApiProfile(domain.apiProfile);
}

/**
 * The domains registered by name only, loaded the first time one of their kinds is asked for (issue 37, start-up): a
 * run loads the handlers, schemas and clients of the APIs its app and its state name, not the others'. A kind names
 * its domain before its first dot (`secrets.KvSecret`); a lookup of it (`lookup:secrets.KvSecret`) too. The plan
 * hooks and preflight of a domain not loaded are not needed: no object of it is in the plan.
 */
const domainLoaders = new Map<string, () => DomainKinds>();

/** Registers a domain to load when a kind `<prefix>.<Name>` is first asked for (the CLI; the package's entry loads all). */
export function registerDomainLoader(prefix: string, load: () => DomainKinds): void {
  domainLoaders.set(prefix, load);
}

function loadDomain(prefix: string): boolean {
  const load = domainLoaders.get(prefix);
  if (!load) return false;
  domainLoaders.delete(prefix);
  registerDomain(load());
  return true;
}

/** Loads the domain of a kind when it is registered by name only; true when it was loaded now. */
function loadDomainOf(kind: string): boolean {
  if (!domainLoaders.size) return false;
  const bare = kind.startsWith(LOOKUP_PREFIX) ? kind.slice(LOOKUP_PREFIX.length) : kind;
  const dot = bare.indexOf('.');
  return dot > 0 && loadDomain(bare.slice(0, dot));
}
