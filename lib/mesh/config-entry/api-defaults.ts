/**
 * Values the mesh API fills in when a field is left at its zero value, by construct kind and
 * spec path: the plan shows what the service will really use (a resolver's connect timeout of
 * `0s` means 5s), not the zero value the spec compares with.
 */
import { DEFAULT_CONNECT_TIMEOUT_NS } from '../compiler/compile';
import { formatGoDuration } from '../compiler/duration';

export const MESH_API_DEFAULTS: Record<string, Record<string, { zero: unknown; effective: unknown }>> = {
  'mesh.ServiceResolver': { connectTimeout: { zero: '0s', effective: formatGoDuration(DEFAULT_CONNECT_TIMEOUT_NS) } },
};
