import { grants, meshPolicy, parseRules, servicePolicy } from '../../../lib/mesh/acl/acl-rules';

// The mesh preflight reads a token's policies' rules (Consul's HCL, or JSON): what converge's kinds need.
describe('mesh ACL rules', () => {
  test('exact rules win over prefixes, the longest prefix over shorter ones; nothing named is denied', () => {
    const r = parseRules(`# converge
service "web" { policy = "read" }
service_prefix "" { policy = "write" }
service_prefix "pay" {
  policy = "deny"
}
node_prefix "" { policy = "read" }
key_prefix "app/" { policy = "write" }
acl = "read"`);
    expect(servicePolicy(r, 'web')).toBe('read');
    expect(servicePolicy(r, 'api')).toBe('write');
    expect(servicePolicy(r, 'payments')).toBe('deny');
    expect(grants(servicePolicy(r, 'web'), 'write')).toBe(false);
    expect(grants(servicePolicy(r, 'web'), 'read')).toBe(true);
    expect(grants(servicePolicy(r, 'payments'), 'read')).toBe(false);
    expect(meshPolicy(r)).toBeUndefined();
    expect(servicePolicy(parseRules(''), 'web')).toBeUndefined();
  });

  test('several policies merge: deny over write over read; mesh falls back to operator; the JSON form', () => {
    const r = parseRules('service "web" { policy = "read" }\noperator = "write"');
    parseRules('{"service": {"web": {"policy": "write"}, "db": {"policy": "deny"}}}', r);
    parseRules('service "db" { policy = "write" }', r);
    expect(servicePolicy(r, 'web')).toBe('write');
    expect(servicePolicy(r, 'db')).toBe('deny');
    expect(grants(meshPolicy(r), 'write')).toBe(true);
    parseRules('mesh = "read"', r);
    expect(grants(meshPolicy(r), 'write')).toBe(false);
  });

  test('text it cannot read is an error, not a grant', () => {
    expect(() => parseRules('service "web" policy = "write"')).toThrow();
  });
});
