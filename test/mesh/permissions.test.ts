import { meshAclPolicy } from '../../lib/mesh/permissions';

test('the mesh ACL policy: one service rule per service (write wins over read), mesh write for proxy-defaults', () => {
  expect(meshAclPolicy([
    { kind: 'mesh.DiscoveryChain', spec: { service: 'web' } },
    { kind: 'mesh.ServiceSplitter', spec: { name: 'web' } },
    { kind: 'lookup:mesh.ServiceDefaults', spec: { id: 'service-defaults/api' } },
    { kind: 'mesh.ProxyDefaults', spec: { name: 'global' } },
    { kind: 'secrets.KvSecret', spec: { path: 'x' } },
  ])).toBe(['service "api" { policy = "read" }', 'service "web" { policy = "write" }', 'mesh = "write"'].join('\n'));
  expect(meshAclPolicy([])).toBe('');
});
