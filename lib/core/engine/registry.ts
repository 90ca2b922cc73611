import { HttpClient } from '../http/http-client';
import { ApiName, DataSourceHandler, ResourceHandler, Spec } from './handler';

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
  const h = resources.get(kind);
  if (!h) throw new Error(`unknown resource kind "${kind}" (is this converge older than the app?)`);
  return h;
}

export function dataSourceHandler(kind: string): DataSourceHandler {
  const h = dataSources.get(kind);
  if (!h) throw new Error(`unknown data source kind "${kind}"`);
  return h;
}

/** Every registered kind, so that tests can cover new kinds without a hand-kept list. */
export function registeredKinds(): { resources: string[]; dataSources: string[] } {
  return { resources: [...resources.keys()].sort(), dataSources: [...dataSources.keys()].sort() };
}
