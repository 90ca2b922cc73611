import {
  CompileError, ConfigEntry, compileDiscoveryChain, compileWithTrace, customizationHash, decodeEntry, CompileRequest,
} from '../../../lib/mesh/compiler';

const TD = '11111111-2222-3333-4444-555555555555.consul';
const compile = (service: string, entries: unknown[], extra: Partial<CompileRequest> = {}) =>
  compileDiscoveryChain({ service, entries: entries.map(decodeEntry), datacenter: 'dc1', trustDomain: TD, ...extra });
const http = (name: string) => ({ Kind: 'service-defaults', Name: name, Protocol: 'http' });

describe('default chain', () => {
  test('a service no entry names compiles to one default tcp resolver with 5s', () => {
    const chain = compile('web', []);
    expect(chain).toEqual({
      ServiceName: 'web', Namespace: 'default', Datacenter: 'dc1', Protocol: 'tcp',
      StartNode: 'resolver:web.default.dc1',
      Nodes: {
        'resolver:web.default.dc1': {
          Type: 'resolver', Name: 'web.default.dc1',
          Resolver: { Default: true, ConnectTimeout: '5s', Target: 'web.default.dc1' },
        },
      },
      Targets: {
        'web.default.dc1': {
          ID: 'web.default.dc1', Service: 'web', Namespace: 'default', Datacenter: 'dc1', MeshGateway: {}, Subset: {},
          SNI: `web.default.dc1.internal.${TD}`, Name: `web.default.dc1.internal.${TD}`,
        },
      },
    });
  });
});

describe('protocol', () => {
  test('from service-defaults', () => {
    expect(compile('web', [{ Kind: 'service-defaults', Name: 'web', Protocol: 'GRPC' }]).Protocol).toBe('grpc');
  });
  test('else from proxy-defaults global config.protocol', () => {
    expect(compile('web', [{ Kind: 'proxy-defaults', Name: 'global', Config: { protocol: 'http' } }]).Protocol).toBe('http');
  });
  test('a service-defaults entry without a protocol wins over proxy-defaults (tcp)', () => {
    const chain = compile('web', [
      { Kind: 'proxy-defaults', Name: 'global', Config: { protocol: 'http' } },
      { Kind: 'service-defaults', Name: 'web' },
    ]);
    expect(chain.Protocol).toBe('tcp');
  });
  test('inconsistent protocols across the chain are a compile error', () => {
    expect(() => compile('web', [
      http('web'), { Kind: 'service-defaults', Name: 'api', Protocol: 'grpc' },
      { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 50 }, { Weight: 50, Service: 'api' }] },
    ])).toThrow('discovery chain "web" uses inconsistent protocols; service "api" has "grpc" which is not "http"');
  });
});

describe('resolvers', () => {
  test('connect timeout as configured (Go duration form), else 5s; Default only without settings', () => {
    const chain = compile('web', [{ Kind: 'service-resolver', Name: 'web', ConnectTimeout: '90s' }]);
    expect(chain.Nodes['resolver:web.default.dc1'].Resolver).toEqual({ ConnectTimeout: '1m30s', Target: 'web.default.dc1' });
  });
  test('a redirect to another datacenter yields a resolver whose target lies there', () => {
    const chain = compile('web', [{ Kind: 'service-resolver', Name: 'web', Redirect: { Datacenter: 'dc2' } }]);
    expect(chain.StartNode).toBe('resolver:web.default.dc2');
    expect(Object.keys(chain.Targets)).toEqual(['web.default.dc2']);
    expect(chain.Targets['web.default.dc2'].Datacenter).toBe('dc2');
  });
  test('redirect to another service and subset, and default subsets are followed', () => {
    const chain = compile('web', [
      { Kind: 'service-resolver', Name: 'web', Redirect: { Service: 'api' } },
      { Kind: 'service-resolver', Name: 'api', DefaultSubset: 'v2', Subsets: { v1: { Filter: 'Service.Meta.version == v1' }, v2: { Filter: 'Service.Meta.version == v2', OnlyPassing: true } } },
    ]);
    expect(chain.StartNode).toBe('resolver:v2.api.default.dc1');
    expect(chain.Targets['v2.api.default.dc1']).toMatchObject({
      ServiceSubset: 'v2', Subset: { Filter: 'Service.Meta.version == v2', OnlyPassing: true },
      SNI: `v2.api.default.dc1.internal.${TD}`,
    });
  });
  test('a redirect cycle is a compile error', () => {
    expect(() => compile('a', [
      { Kind: 'service-resolver', Name: 'a', Redirect: { Service: 'b' } },
      { Kind: 'service-resolver', Name: 'b', Redirect: { Service: 'a' } },
    ])).toThrow('detected circular resolver redirect: [a.default.dc1 -> b.default.dc1 -> a.default.dc1]');
  });
  test('an unknown subset is a compile error', () => {
    expect(() => compile('web', [
      http('web'), { Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/x' } }, Destination: { ServiceSubset: 'v9' } }] },
    ])).toThrow('service "web" does not have a subset named "v9"');
  });
  test('failover datacenters are listed in order as Failover.Targets, never the target itself', () => {
    const chain = compile('web', [{ Kind: 'service-resolver', Name: 'web', Failover: { '*': { Datacenters: ['dc3', 'dc1', 'dc2'] } } }]);
    expect(chain.Nodes['resolver:web.default.dc1'].Resolver!.Failover).toEqual({ Targets: ['web.default.dc3', 'web.default.dc2'] });
    expect(Object.keys(chain.Targets)).toEqual(['web.default.dc1', 'web.default.dc2', 'web.default.dc3']);
    expect(Object.keys(chain.Nodes)).toEqual(['resolver:web.default.dc1']);
  });
  test('failover per subset wins over "*"; failover to another service follows its resolver', () => {
    const chain = compile('web', [
      { Kind: 'service-resolver', Name: 'web', DefaultSubset: 'v1', Subsets: { v1: { Filter: 'Service.Meta.v == 1' }, v2: {} },
        Failover: { v1: { ServiceSubset: 'v2' }, '*': { Service: 'backup' } } },
      { Kind: 'service-resolver', Name: 'backup', ConnectTimeout: '3s' },
    ]);
    expect(chain.Nodes['resolver:v1.web.default.dc1'].Resolver!.Failover).toEqual({ Targets: ['v2.web.default.dc1'] });
    // Go's omitempty: a subset without filter and without OnlyPassing serialises as {}.
    expect(chain.Targets['v2.web.default.dc1'].Subset).toEqual({});
    expect(chain.Targets['v1.web.default.dc1'].Subset).toEqual({ Filter: 'Service.Meta.v == 1' });
  });
  test('mesh gateway mode applies to targets in other datacenters only (service-defaults, then proxy-defaults)', () => {
    const chain = compile('web', [
      { Kind: 'proxy-defaults', Name: 'global', MeshGateway: { Mode: 'local' } },
      { Kind: 'service-resolver', Name: 'web', Failover: { '*': { Datacenters: ['dc2'] } } },
    ]);
    expect(chain.Targets['web.default.dc1'].MeshGateway).toEqual({});
    expect(chain.Targets['web.default.dc2'].MeshGateway).toEqual({ Mode: 'local' });
    const withSd = compile('web', [
      { Kind: 'proxy-defaults', Name: 'global', MeshGateway: { Mode: 'local' } },
      { Kind: 'service-defaults', Name: 'web', MeshGateway: { Mode: 'remote' } },
      { Kind: 'service-resolver', Name: 'web', Redirect: { Datacenter: 'dc2' } },
    ]);
    expect(withSd.Targets['web.default.dc2'].MeshGateway).toEqual({ Mode: 'remote' });
  });
  test('ExternalSNI replaces SNI but never Name', () => {
    const chain = compile('web', [{ Kind: 'service-defaults', Name: 'web', ExternalSNI: 'web.example.com' }]);
    expect(chain.Targets['web.default.dc1']).toMatchObject({ SNI: 'web.example.com', External: true, Name: `web.default.dc1.internal.${TD}` });
  });
});

describe('splitters and routers', () => {
  test('a splitter yields a splitter start node with one resolver per split', () => {
    const chain = compile('web', [
      http('web'),
      { Kind: 'service-resolver', Name: 'web', Subsets: { v1: { Filter: 'Service.Meta.v == 1' }, v2: { Filter: 'Service.Meta.v == 2' } } },
      { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 90, ServiceSubset: 'v1' }, { Weight: 10, ServiceSubset: 'v2' }] },
    ]);
    expect(chain.StartNode).toBe('splitter:web');
    expect(chain.Nodes['splitter:web']).toEqual({
      Type: 'splitter', Name: 'web',
      Splits: [{ Weight: 90, NextNode: 'resolver:v1.web.default.dc1' }, { Weight: 10, NextNode: 'resolver:v2.web.default.dc1' }],
    });
    expect(Object.keys(chain.Nodes).sort()).toEqual(['resolver:v1.web.default.dc1', 'resolver:v2.web.default.dc1', 'splitter:web']);
  });
  test('nested splitters are flattened (weights multiplied, rounded to 0.01)', () => {
    const chain = compile('web', [
      http('web'), http('api'), http('a'), http('b'), http('c'),
      { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 50, Service: 'api' }, { Weight: 50 }] },
      { Kind: 'service-splitter', Name: 'api', Splits: [{ Weight: 33.33, Service: 'a' }, { Weight: 33.33, Service: 'b' }, { Weight: 33.34, Service: 'c' }] },
    ]);
    expect(chain.Nodes['splitter:web'].Splits).toEqual([
      { Weight: 16.67, NextNode: 'resolver:a.default.dc1' },
      { Weight: 16.67, NextNode: 'resolver:b.default.dc1' },
      { Weight: 16.67, NextNode: 'resolver:c.default.dc1' },
      { Weight: 50, NextNode: 'resolver:web.default.dc1' },
    ]);
    expect(chain.Nodes['splitter:api']).toBeUndefined();
  });
  test('splitters referring to each other are a circular reference', () => {
    expect(() => compile('a', [
      http('a'), http('b'),
      { Kind: 'service-splitter', Name: 'a', Splits: [{ Weight: 100, Service: 'b' }] },
      { Kind: 'service-splitter', Name: 'b', Splits: [{ Weight: 100, Service: 'a' }] },
    ])).toThrow('detected circular reference: [splitter:a -> splitter:b -> splitter:a]');
  });
  test('a router yields a router start node with the catch-all route appended; routes to one target share a resolver', () => {
    const chain = compile('web', [
      http('web'), http('admin'),
      { Kind: 'service-router', Name: 'web', Routes: [
        { Match: { HTTP: { PathPrefix: '/admin' } }, Destination: { Service: 'admin', PrefixRewrite: '/', RequestTimeout: '60s', NumRetries: 3, RetryOnConnectFailure: true, RetryOnStatusCodes: [503] } },
        { Match: { HTTP: { Header: [{ Name: 'x-debug', Exact: '1' }] } }, Destination: { Service: 'admin' } },
      ] },
    ]);
    expect(chain.StartNode).toBe('router:web');
    const routes = chain.Nodes['router:web'].Routes!;
    expect(routes).toHaveLength(3);
    expect(routes[0]).toEqual({
      Definition: { Match: { HTTP: { PathPrefix: '/admin' } }, Destination: { Service: 'admin', PrefixRewrite: '/', RequestTimeout: '1m0s', NumRetries: 3, RetryOnConnectFailure: true, RetryOnStatusCodes: [503] } },
      NextNode: 'resolver:admin.default.dc1',
    });
    expect(routes[1].NextNode).toBe('resolver:admin.default.dc1');
    expect(routes[2]).toEqual({
      Definition: { Match: { HTTP: { PathPrefix: '/' } }, Destination: { Service: 'web' } },
      NextNode: 'resolver:web.default.dc1',
    });
    expect(Object.keys(chain.Nodes)).toHaveLength(3);
  });
  test('a router destination without subset goes through that service\'s splitter', () => {
    const chain = compile('web', [
      http('web'), http('api'),
      { Kind: 'service-splitter', Name: 'api', Splits: [{ Weight: 100, Service: 'web' }] },
      { Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/api' } }, Destination: { Service: 'api' } }] },
    ]);
    expect(chain.Nodes['router:web'].Routes![0].NextNode).toBe('splitter:api');
  });
  test('tcp chains refuse routers and splitters', () => {
    const msg = 'discovery chain "web" uses a protocol "tcp" that does not permit advanced routing or splitting behavior';
    expect(() => compile('web', [{ Kind: 'service-router', Name: 'web', Routes: [] }])).toThrow(msg);
    expect(() => compile('web', [{ Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 100 }] }])).toThrow(msg);
    expect(() => compile('web', [{ Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 100 }] }])).toThrow(CompileError);
  });
  test('namespaces: the chain, targets and route destinations', () => {
    const chain = compile('web', [
      { ...http('web'), Namespace: 'team' }, { ...http('api'), Namespace: 'other' },
      { Kind: 'service-router', Name: 'web', Namespace: 'team', Routes: [{ Match: { HTTP: { PathPrefix: '/api' } }, Destination: { Service: 'api', Namespace: 'other' } }] },
    ], { namespace: 'team' });
    expect(chain.Namespace).toBe('team');
    expect(Object.keys(chain.Targets)).toEqual(['api.other.dc1', 'web.team.dc1']);
    // The destination's namespace chose the target; the route as shown carries no Namespace.
    expect(chain.Nodes['router:web'].Routes!.map((r) => r.Definition)).toEqual([
      { Match: { HTTP: { PathPrefix: '/api' } }, Destination: { Service: 'api' } },
      { Match: { HTTP: { PathPrefix: '/' } }, Destination: { Service: 'web' } },
    ]);
  });
});

describe('overrides', () => {
  const remote = [
    { Kind: 'service-resolver', Name: 'web', ConnectTimeout: '2s', Failover: { '*': { Datacenters: ['dc2'] } } },
    { Kind: 'service-resolver', Name: 'api', ConnectTimeout: '3s' },
  ];
  test('override values replace the values in every resolver and target', () => {
    const chain = compile('web', remote, { overrides: { OverrideConnectTimeout: '7s', OverrideMeshGateway: { Mode: 'remote' } } });
    expect(chain.Nodes['resolver:web.default.dc1'].Resolver!.ConnectTimeout).toBe('7s');
    expect(chain.Targets['web.default.dc2'].MeshGateway).toEqual({ Mode: 'remote' });
    expect(chain.Targets['web.default.dc1'].MeshGateway).toEqual({});
    expect(chain.CustomizationHash).toMatch(/^[0-9a-f]{1,8}$/);
  });
  test('the two reference hashes of the real system', () => {
    const all = compile('web', remote, { overrides: { OverrideConnectTimeout: '7s', OverrideProtocol: 'grpc', OverrideMeshGateway: { Mode: 'remote' } } });
    expect(all.CustomizationHash).toBe('b94f529a');
    expect(all.Protocol).toBe('grpc');
    const local = compile('web', remote, { overrides: { OverrideConnectTimeout: 22e9, OverrideProtocol: 'grpc', OverrideMeshGateway: { Mode: 'local' } } });
    expect(local.CustomizationHash).toBe('98809527');
    expect(customizationHash({ meshGatewayMode: 'remote', protocol: 'grpc', connectTimeoutNs: 7e9 })).toBe('b94f529a');
    expect(customizationHash({ meshGatewayMode: 'local', protocol: 'grpc', connectTimeoutNs: 22e9 })).toBe('98809527');
  });
  test('no hash when the overrides change nothing; only changing overrides count', () => {
    const same = compile('web', [{ Kind: 'service-resolver', Name: 'web', ConnectTimeout: '7s' }],
      { overrides: { OverrideConnectTimeout: '7s', OverrideProtocol: 'tcp', OverrideMeshGateway: { Mode: 'remote' } } });
    expect(same.CustomizationHash).toBeUndefined();
    const onlyTimeout = compile('web', [], { overrides: { OverrideConnectTimeout: '7s', OverrideProtocol: 'tcp' } });
    expect(onlyTimeout.CustomizationHash).toBe(customizationHash({ meshGatewayMode: '', protocol: '', connectTimeoutNs: 7e9 }));
  });
  test('an L7 chain loses routers and splitters when tcp is passed', () => {
    const entries = [http('web'), { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 100 }] },
      { Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/a' } } }] }];
    const chain = compile('web', entries, { overrides: { OverrideProtocol: 'tcp' } });
    expect(chain.StartNode).toBe('resolver:web.default.dc1');
    expect(chain.Protocol).toBe('tcp');
    expect(chain.CustomizationHash).toBe(customizationHash({ meshGatewayMode: '', protocol: 'tcp', connectTimeoutNs: 0 }));
  });
  test('a tcp chain stays without routers and splitters when an L7 protocol is passed', () => {
    const chain = compile('web', [], { overrides: { OverrideProtocol: 'http' } });
    expect(chain.Protocol).toBe('http');
    expect(chain.StartNode).toBe('resolver:web.default.dc1');
    expect(chain.CustomizationHash).toBeDefined();
  });
  test('useInDatacenter: targets in the agent\'s own datacenter keep no mesh gateway mode', () => {
    const chain = compile('web', [{ Kind: 'proxy-defaults', Name: 'global', MeshGateway: { Mode: 'local' } }],
      { datacenter: 'dc2', useInDatacenter: 'dc1' });
    expect(chain.Datacenter).toBe('dc2');
    expect(chain.Targets['web.default.dc2'].MeshGateway).toEqual({ Mode: 'local' });
  });
});

test('compileWithTrace names the services consulted', () => {
  const r = compileWithTrace({ service: 'web', entries: [decodeEntry({ Kind: 'service-resolver', Name: 'web', Redirect: { Service: 'api' } })] as ConfigEntry[], datacenter: 'dc1', trustDomain: TD });
  expect(r.services).toEqual(['default/api', 'default/web']);
});

describe('more redirects, failover and sharing', () => {
  test('a redirect to a subset of another service in another namespace', () => {
    const chain = compile('web', [
      { Kind: 'service-resolver', Name: 'web', Redirect: { Service: 'api', ServiceSubset: 'v2', Namespace: 'ops' } },
      { Kind: 'service-resolver', Name: 'api', Namespace: 'ops', Subsets: { v2: { Filter: 'Service.Meta.v == 2' } } },
    ]);
    expect(chain.StartNode).toBe('resolver:v2.api.ops.dc1');
    expect(chain.Targets['v2.api.ops.dc1']).toMatchObject({ Service: 'api', ServiceSubset: 'v2', Namespace: 'ops', SNI: `v2.api.ops.dc1.internal.${TD}` });
  });
  test('failover to another service keeps the subset only for the same service; redirects of failover targets are followed', () => {
    const chain = compile('web', [
      { Kind: 'service-resolver', Name: 'web', Failover: { '*': { Service: 'backup', Datacenters: ['dc2', 'dc3'] } } },
      { Kind: 'service-resolver', Name: 'backup', Redirect: { Service: 'archive' } },
    ]);
    expect(chain.Nodes['resolver:web.default.dc1'].Resolver!.Failover).toEqual({ Targets: ['archive.default.dc2', 'archive.default.dc3'] });
    expect(Object.keys(chain.Targets)).toEqual(['archive.default.dc2', 'archive.default.dc3', 'web.default.dc1']);
  });
  test('splits to the same target share one resolver node', () => {
    const chain = compile('web', [
      http('web'), http('a'),
      { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 50, Service: 'a' }, { Weight: 50, Service: 'b' }] },
      { Kind: 'service-resolver', Name: 'b', Redirect: { Service: 'a' } },
      http('b'),
    ]);
    expect(chain.Nodes['splitter:web'].Splits).toEqual([
      { Weight: 50, NextNode: 'resolver:a.default.dc1' }, { Weight: 50, NextNode: 'resolver:a.default.dc1' }]);
    expect(Object.keys(chain.Nodes)).toEqual(['resolver:a.default.dc1', 'splitter:web']);
  });
  test('a failover target in the agent datacenter keeps no mesh gateway mode while others get it', () => {
    const chain = compile('web', [
      { Kind: 'service-defaults', Name: 'web', MeshGateway: { Mode: 'remote' } },
      { Kind: 'service-resolver', Name: 'web', Redirect: { Datacenter: 'dc2' } },
    ], { overrides: { OverrideMeshGateway: { Mode: 'remote' } } });
    expect(chain.Targets['web.default.dc2'].MeshGateway).toEqual({ Mode: 'remote' });
    expect(chain.CustomizationHash).toBeUndefined(); // the override changed nothing
  });
});
