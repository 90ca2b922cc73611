/**
 * A service name read from the synthesized output (which a pull request may have written by hand):
 * one that would end its quoted string or act as a glob or template in a Consul ACL rule is refused.
 */
function serviceName(v: unknown, field: string): string {
  const name = String(v);
  if (/[\u0000-\u001f\u007f"\\*{}]/.test(name)) {
    throw new Error(`${field}: ${JSON.stringify(name)} holds a control character, a quote, a backslash, "*", "{" or "}": ` +
      'converge policy does not print an ACL rule for it');
  }
  return name;
}

const serviceRule = (name: string, policy: string) => `service ${JSON.stringify(name)} { policy = "${policy}" }`;

/** The mesh ACL rules each kind needs through plan, apply and destroy, as text for `converge policy`. */
export const MESH_PERMISSIONS: Record<string, (spec: Record<string, unknown>) => string> = {
  'mesh.ProxyDefaults': () => 'mesh = "write" (proxy-defaults is global)',
  'mesh.ServiceDefaults': (s) => serviceRule(serviceName(s.name, 'name'), 'write'),
  'mesh.ServiceResolver': (s) => serviceRule(serviceName(s.name, 'name'), 'write'),
  'mesh.ServiceSplitter': (s) => serviceRule(serviceName(s.name, 'name'), 'write'),
  'mesh.ServiceRouter': (s) => serviceRule(serviceName(s.name, 'name'), 'write'),
  'mesh.DiscoveryChain': (s) => serviceRule(serviceName(s.service, 'service'), 'read'),
  // A lookup reads the entry (`ServiceDefaults.fromName`): its id is `[namespace/]service-defaults/<name>`.
  'lookup:mesh.ServiceDefaults': (s) => serviceRule(serviceName(String(s.id).split('/').pop(), 'id'), 'read'),
};

/** The ACL rules of one kind, as data: the services it reads or writes, and whether it writes mesh-wide entries. */
export interface MeshRule { readonly service?: string; readonly policy: 'read' | 'write'; readonly mesh?: boolean }

/** The ACL rule a kind needs (undefined for a kind that is no mesh kind): what `converge policy` prints and the preflight asks. */
export function meshRuleOf(kind: string, spec: Record<string, unknown>): MeshRule | undefined {
  return MESH_RULES[kind]?.(spec);
}

const MESH_RULES: Record<string, (spec: Record<string, unknown>) => MeshRule> = {
  'mesh.ProxyDefaults': () => ({ policy: 'write', mesh: true }),
  'mesh.ServiceDefaults': (s) => ({ service: serviceName(s.name, 'name'), policy: 'write' }),
  'mesh.ServiceResolver': (s) => ({ service: serviceName(s.name, 'name'), policy: 'write' }),
  'mesh.ServiceSplitter': (s) => ({ service: serviceName(s.name, 'name'), policy: 'write' }),
  'mesh.ServiceRouter': (s) => ({ service: serviceName(s.name, 'name'), policy: 'write' }),
  'mesh.DiscoveryChain': (s) => ({ service: serviceName(s.service, 'service'), policy: 'read' }),
  'lookup:mesh.ServiceDefaults': (s) => ({ service: serviceName(String(s.id).split('/').pop(), 'id'), policy: 'read' }),
};

/**
 * The smallest mesh ACL policy (Consul's HCL rules) for a stack's mesh constructs: `service` rules
 * (write wins over read), `mesh = "write"` for proxy-defaults. Empty when the stack has none.
 */
export function meshAclPolicy(resources: { kind: string; spec: Record<string, unknown> }[]): string {
  const services = new Map<string, 'read' | 'write'>();
  let mesh = false;
  for (const r of resources) {
    const rule = MESH_RULES[r.kind]?.(r.spec);
    if (!rule) continue;
    if (rule.mesh) mesh = true;
    if (rule.service !== undefined && services.get(rule.service) !== 'write') services.set(rule.service, rule.policy);
  }
  const lines = [...services].sort(([a], [b]) => a.localeCompare(b)).map(([name, policy]) => `service ${JSON.stringify(name)} { policy = "${policy}" }`);
  if (mesh) lines.push('mesh = "write"');
  return lines.join('\n');
}
