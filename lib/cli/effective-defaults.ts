/* eslint-disable @typescript-eslint/no-require-imports */
type Table = Record<string, Record<string, { zero: unknown; effective: unknown }>>;

/**
 * Each API's table by the prefix of its kinds, loaded the first time a kind of it is shown: the mesh's takes its
 * values from the chain compiler, which a plan of other APIs does not load (issue 37, start-up).
 */
const TABLES: Record<string, () => Table> = {
  mesh: () => (require('../mesh/config-entry/api-defaults') as typeof import('../mesh/config-entry/api-defaults')).MESH_API_DEFAULTS,
};

/** The value an API really uses where the spec holds the zero value it fills in; undefined otherwise. */
export function effectiveDefault(kind: string, path: string, value: unknown): unknown {
  const table = TABLES[kind.slice(0, kind.indexOf('.'))];
  const d = table?.()[kind]?.[path];
  return d && d.zero === value ? d.effective : undefined;
}
