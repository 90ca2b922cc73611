import { DataSourceHandler, ResourceHandler } from './handler';

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
