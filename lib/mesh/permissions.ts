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

/** An intentions entry's destination: a service name, or exactly `*` (every service: `service_prefix ""`). */
const intentionsDestination = (v: unknown): string => (v === '*' ? '*' : serviceName(v, 'name'));

const serviceRule = (name: string, policy: string) => `service ${JSON.stringify(name)} { policy = "${policy}" }`;

/** The mesh ACL rules each kind needs through plan, apply and destroy, as text for `converge policy`. */
export const MESH_PERMISSIONS: Record<string, (spec: Record<string, unknown>) => string> = {
  'mesh.ProxyDefaults': () => 'mesh = "write" (proxy-defaults is global)',
  'mesh.ServiceDefaults': (s) => serviceRule(serviceName(s.name, 'name'), 'write'),
  'mesh.ServiceResolver': (s) => serviceRule(serviceName(s.name, 'name'), 'write'),
  'mesh.ServiceSplitter': (s) => serviceRule(serviceName(s.name, 'name'), 'write'),
  'mesh.ServiceRouter': (s) => serviceRule(serviceName(s.name, 'name'), 'write'),
  'mesh.DiscoveryChain': (s) => serviceRule(serviceName(s.service, 'service'), 'read'),
  // Intentions are written with the destination's `intentions` rule (every service's for `*`).
  'mesh.ServiceIntentions': (s) => `${serviceRuleHead(intentionsDestination(s.name))} { intentions = "write" }`,
  'mesh.AclPolicy': () => 'acl = "write"',
  'mesh.AclRole': () => 'acl = "write"',
  'mesh.AclToken': () => 'acl = "write"',
  // A lookup reads the entry (`ServiceDefaults.fromName`): its id is `[namespace/]service-defaults/<name>`.
  'lookup:mesh.ServiceDefaults': (s) => serviceRule(serviceName(String(s.id).split('/').pop(), 'id'), 'read'),
};

/** `service "<name>"`, or `service_prefix ""` for `*` (every service). */
function serviceRuleHead(name: string): string {
  return name === '*' ? 'service_prefix ""' : `service ${JSON.stringify(name)}`;
}

/**
 * The ACL rules of one kind, as data: the services it reads or writes, whether it writes mesh-wide
 * entries, and whether what it writes is the service's intentions (its `intentions` rule, not its `policy`).
 */
export interface MeshRule {
  readonly service?: string;
  readonly policy: 'read' | 'write';
  readonly mesh?: boolean;
  readonly intentions?: boolean;
  /** Writes ACL objects (`acl = "write"`). */
  readonly acl?: boolean;
}

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
  'mesh.ServiceIntentions': (s) => ({ service: intentionsDestination(s.name), policy: 'write', intentions: true }),
  'mesh.AclPolicy': () => ({ policy: 'write', acl: true }),
  'mesh.AclRole': () => ({ policy: 'write', acl: true }),
  'mesh.AclToken': () => ({ policy: 'write', acl: true }),
  'lookup:mesh.ServiceDefaults': (s) => ({ service: serviceName(String(s.id).split('/').pop(), 'id'), policy: 'read' }),
};

/**
 * The smallest mesh ACL policy (Consul's HCL rules) for a stack's mesh constructs: `service` rules
 * (write wins over read), `mesh = "write"` for proxy-defaults. Empty when the stack has none.
 */
export function meshAclPolicy(resources: { kind: string; spec: Record<string, unknown> }[]): string {
  const services = new Map<string, 'read' | 'write'>();
  const intentions = new Set<string>();
  let mesh = false;
  let acl = false;
  for (const r of resources) {
    const rule = MESH_RULES[r.kind]?.(r.spec);
    if (!rule) continue;
    if (rule.mesh) mesh = true;
    if (rule.acl) acl = true;
    if (rule.intentions && rule.service !== undefined) intentions.add(rule.service);
    else if (rule.service !== undefined && services.get(rule.service) !== 'write') services.set(rule.service, rule.policy);
  }
  const names = [...new Set([...services.keys(), ...intentions])].sort((a, b) => a.localeCompare(b));
  const lines = names.map((name) => {
    const parts = [services.has(name) ? `policy = "${services.get(name)}"` : '', intentions.has(name) ? 'intentions = "write"' : ''].filter(Boolean);
    return `${serviceRuleHead(name)} { ${parts.join(' ')} }`;
  });
  if (mesh) lines.push('mesh = "write"');
  if (acl) lines.push('acl = "write"');
  return lines.join('\n');
}
