import { PreflightCheck } from '../core/engine/preflight';
import { ApiError } from '../core/http/api-error';
import { HttpClient } from '../core/http/http-client';
import { emptyRules, grants, meshPolicy, parseRules, ParsedRules, servicePolicy } from './acl/acl-rules';
import { meshRuleOf } from './permissions';

/** The mesh's built-in policy that may do anything. */
const GLOBAL_MANAGEMENT_ID = '00000000-0000-0000-0000-000000000001';

interface TokenSelf {
  readonly Policies?: { ID?: string; Name?: string }[];
  readonly Roles?: { ID?: string; Name?: string }[];
  readonly ServiceIdentities?: { ServiceName: string }[];
}

/**
 * `acl/token/self` (any token may read itself), then the rules of each of its policies (which needs
 * `acl = "read"`): the rules each kind needs, from the table `converge policy` prints, checked against
 * them. A token holding `global-management` needs no more than the first request. Where the server
 * does not answer (ACLs disabled, a token that may not read policies, roles), the check is not made.
 * Rules a token does not hold are taken as denied (the mesh's `default_policy = "deny"`, as production
 * agents run).
 */
export const meshPreflight: PreflightCheck = async ({ items, http }) => {
  const needed = new Map<string, { label: string; ok: (r: ParsedRules) => boolean; addresses: string[] }>();
  for (const item of items) {
    const rule = meshRuleOf(item.kind, item.spec);
    // Intentions and ACL rules (`intentions = "write"`, `acl = "write"`) are not among those the preflight reads: the server decides.
    if (!rule || rule.intentions || rule.acl) continue;
    const [label, ok] = rule.mesh
      ? ['mesh = "write"', (r: ParsedRules) => grants(meshPolicy(r), 'write')] as const
      : [`service "${rule.service}" { policy = "${rule.policy}" }`, (r: ParsedRules) => grants(servicePolicy(r, String(rule.service)), rule.policy)] as const;
    const n = needed.get(label) ?? { label, ok, addresses: [] };
    n.addresses.push(item.address);
    needed.set(label, n);
  }
  if (!needed.size) return { missing: [] };
  const self = await answer<TokenSelf>(http, '/v1/acl/token/self');
  // A mesh without ACLs refuses nothing.
  if (self.status === 401 && /ACL support disabled/i.test(String(self.body))) return { missing: [] };
  if (self.status !== 200) return { missing: [], couldNotCheck: `acl/token/self ${self.failure}` };
  const token = self.body as TokenSelf;
  const policies = token.Policies ?? [];
  if (policies.some((p) => p.ID === GLOBAL_MANAGEMENT_ID || p.Name === 'global-management')) return { missing: [] };
  // The agent says its default policy on every answer: with "allow", what no rule names is allowed.
  const defaultPolicy = String(self.headers['x-consul-default-acl-policy'] ?? 'deny').toLowerCase();
  if (token.Roles?.length) return { missing: [], couldNotCheck: 'the token holds roles, whose rules converge does not read' };
  const rules = emptyRules();
  for (const s of token.ServiceIdentities ?? []) {
    // A service identity grants write on the service and its sidecar proxy.
    for (const name of [s.ServiceName, `${s.ServiceName}-sidecar-proxy`]) rules.service.set(name, 'write');
  }
  for (const p of policies) {
    const path = p.ID ? `/v1/acl/policy/${encodeURIComponent(p.ID)}` : `/v1/acl/policy/name/${encodeURIComponent(p.Name ?? '')}`;
    const policy = await answer<{ Rules?: string }>(http, path);
    if (policy.status !== 200) {
      return { missing: [], couldNotCheck: `its policy "${p.Name ?? p.ID}" ${policy.failure} (reading a token's policies needs acl = "read")` };
    }
    try {
      parseRules((policy.body as { Rules?: string }).Rules ?? '', rules);
    } catch (e) {
      return { missing: [], couldNotCheck: `the rules of its policy "${p.Name ?? p.ID}" could not be read: ${(e as Error).message}` };
    }
  }
  if (defaultPolicy === 'allow') rules.servicePrefix.set('', rules.servicePrefix.get('') ?? 'write');
  if (defaultPolicy === 'allow' && rules.mesh === undefined && rules.operator === undefined) rules.operator = 'write';
  const missing = [...needed.values()].filter((n) => !n.ok(rules)).sort((a, b) => a.label.localeCompare(b.label));
  return { missing: missing.map((m) => `the mesh token lacks ${m.label} (needed by ${[...new Set(m.addresses)].sort().join(', ')})`) };
};

/** A GET's answer, with what it answered in words when it is no 200. */
async function answer<T>(http: HttpClient, path: string): Promise<{ status: number; body?: T; headers: Record<string, unknown>; failure?: string }> {
  try {
    const res = await http.request<T>({ method: 'GET', path, accept: [401, 403, 404] });
    const text = typeof res.body === 'string' ? res.body.trim() : '';
    return { status: res.status, body: res.body, headers: res.headers, failure: res.status === 200 ? undefined : `answered ${res.status}${text ? ` (${text})` : ''}` };
  } catch (e) {
    if (e instanceof ApiError && e.status !== 0) return { status: e.status, headers: {}, failure: `answered ${e.status} (${e.apiMessages.join('; ')})` };
    throw e;
  }
}
