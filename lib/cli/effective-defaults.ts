import { MESH_API_DEFAULTS } from '../mesh/config-entry/api-defaults';

const TABLES = [MESH_API_DEFAULTS];

/** The value an API really uses where the spec holds the zero value it fills in; undefined otherwise. */
export function effectiveDefault(kind: string, path: string, value: unknown): unknown {
  for (const t of TABLES) {
    const d = t[kind]?.[path];
    if (d && d.zero === value) return d.effective;
  }
  return undefined;
}
