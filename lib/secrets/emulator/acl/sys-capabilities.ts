import { EmuResponse } from '../../../core/emulator-kit/types';
import { envelope, errors, objectBody } from '../responses';
import { Capability } from './policy-parser';

export const CAPABILITIES_SELF = 'sys/capabilities-self';

/**
 * `sys/capabilities-self` (POST or PUT `{"paths": [...]}`; the older `path` too), as the real service
 * answers it (the spec does not show it): each path's capabilities, sorted, `["root"]` for a root token,
 * `["deny"]` where none is granted; in `data` and, as the real service keeps for old clients, at the top
 * level, with `capabilities` for the first path when only one was asked.
 */
export function capabilitiesSelf(method: string, body: unknown, of: (path: string) => Set<Capability> | 'root'): EmuResponse {
  if (method !== 'POST' && method !== 'PUT') return errors(405, 'unsupported operation');
  const b = objectBody(body);
  const list = (v: unknown): string[] => (typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean)
    : Array.isArray(v) ? v.map(String) : []);
  const paths = [...list(b.paths), ...list(b.path)];
  if (!paths.length) return errors(400, "'paths' must be supplied");
  const data: Record<string, string[]> = {};
  for (const raw of paths) {
    const held = of(raw.replace(/^\/+/, ''));
    data[raw] = held === 'root' ? ['root'] : held.size ? [...held].sort() : ['deny'];
  }
  if (paths.length === 1) data.capabilities = data[paths[0]];
  const res = envelope(data);
  return { ...res, body: { ...data, ...(res.body as object) } };
}
