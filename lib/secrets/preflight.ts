import { PreflightCheck, PreflightItem } from '../core/engine/preflight';
import { ApiError } from '../core/http/api-error';
import { HttpClient } from '../core/http/http-client';
import { PolicyResources, PREFLIGHT_PATH, registeredSecretsPolicyOf } from './shared/policy-paths';

/**
 * The paths and capabilities the plan's writes need, from the policies the kinds declare (what `converge policy` prints): a kind's
 * `delete` only where the object is deleted (a delete, a replace), the rest for any write.
 */
export function neededPaths(items: readonly PreflightItem[], resources: PolicyResources = {}): { path: string; capability: string; addresses: string[] }[] {
  // Addresses as a set: thousands of objects of one kind share a path (a search in a list per object was quadratic).
  // Each item's declared paths are taken as they are (no merged, sorted copy per object): the map joins them, and the
  // preflight sorts what it reports.
  const needed = new Map<string, { path: string; capability: string; addresses: Set<string> }>();
  for (const item of items) {
    const policy = registeredSecretsPolicyOf(item.kind, item.spec, resources);
    if (!policy) continue;
    for (const { path, capabilities } of policy) {
      for (const capability of capabilities) {
        if (capability === 'delete' && !item.deletes) continue;
        const key = `${path}\n${capability}`;
        let n = needed.get(key);
        if (!n) needed.set(key, n = { path, capability, addresses: new Set<string>() });
        n.addresses.add(item.address);
      }
    }
  }
  return [...needed.values()].map((n) => ({ ...n, addresses: [...n.addresses] }));
}

/** `sys/capabilities-self` for every path at once: one request per token. */
export const secretsPreflight: PreflightCheck = async ({ items, http, resources }) => {
  const needed = neededPaths(items, resources);
  if (!needed.length) return { missing: [] };
  const paths = [...new Set(needed.map((n) => n.path))].sort();
  const held = await capabilitiesSelf(http, paths);
  if (typeof held === 'string') return { missing: [], couldNotCheck: held };
  const missing = needed.filter((n) => {
    const caps = held.get(n.path) ?? [];
    return !caps.includes('root') && !caps.includes(n.capability);
  }).sort((a, b) => a.path.localeCompare(b.path) || a.capability.localeCompare(b.capability));
  return {
    missing: missing.map((m) => `the secrets token lacks "${m.capability}" on "${m.path}" (needed by ${m.addresses.sort().join(', ')}; it holds ` +
      `${JSON.stringify(held.get(m.path)?.filter((c) => c !== 'deny') ?? [])})`),
  };
};

/**
 * What the token holds on each path (the service's own answer), or why the service could not say:
 * a token without `update` on `sys/capabilities-self` (the `default` policy grants it), a server without the endpoint.
 */
export async function capabilitiesSelf(http: HttpClient, paths: readonly string[]): Promise<Map<string, string[]> | string> {
  let res;
  try {
    res = await http.request<Record<string, unknown>>({
      method: 'POST', path: `/v1/${PREFLIGHT_PATH}`, body: { paths }, idempotent: true, accept: [400, 401, 403, 404, 405],
    });
  } catch (e) {
    if (e instanceof ApiError && e.status !== 0) return `${PREFLIGHT_PATH} answered ${e.status}: ${e.apiMessages.join('; ')}`;
    throw e;
  }
  if (res.status !== 200) {
    const messages = ((res.body as { errors?: unknown } | undefined)?.errors as unknown[] | undefined)?.map(String).join('; ') ?? '';
    return `${PREFLIGHT_PATH} answered ${res.status}${messages ? ` (${messages.replace(/^\d+ errors? occurred:\s*\*\s*/, '').trim()})` : ''}` +
      (res.status === 403 ? `: grant path "${PREFLIGHT_PATH}" { capabilities = ["update"] } (\`converge policy\` prints it; the default policy has it)` : '');
  }
  const data = (res.body?.data ?? res.body ?? {}) as Record<string, unknown>;
  const held = new Map<string, string[]>();
  for (const p of paths) {
    const caps = data[p] ?? res.body?.[p];
    if (!Array.isArray(caps)) return `${PREFLIGHT_PATH} did not answer for "${p}"`;
    held.set(p, caps.map(String));
  }
  return held;
}
