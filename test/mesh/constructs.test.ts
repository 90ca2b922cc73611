import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import * as mesh from '../../lib/mesh';

function stack(): TerraformStack {
  return new TerraformStack(new App(), 'prod');
}
const resources = (s: TerraformStack) => ConvergeTesting.desiredState(s).resources;

test('ServiceDefaults: kind, identity, defaults filled, provider from the environment', () => {
  const s = stack();
  const sd = new mesh.ServiceDefaults(s, 'web', { name: 'web', protocol: mesh.MeshProtocol.HTTP });
  expect(sd.entryId).toBe('service-defaults/web');
  const r = resources(s).web;
  expect(r.kind).toBe('mesh.ServiceDefaults');
  expect(r.spec).toEqual({ name: 'web', namespace: 'default', meta: {}, protocol: 'http', meshGateway: null, externalSni: '' });
  expect(r.provider).toEqual({ api: 'mesh', addressEnv: 'MESH_HTTP_ADDR', tokenEnv: 'MESH_HTTP_TOKEN' });
  expect(new mesh.ServiceDefaults(s, 'team', { name: 'web', namespace: 'team' }).entryId).toBe('team/service-defaults/web');
});

test('ServiceResolver: durations normalised (1m and 60s are the same spec), nested props in camelCase', () => {
  const a = stack();
  new mesh.ServiceResolver(a, 'r', {
    name: 'web', connectTimeout: '1m', defaultSubset: 'v1',
    subsets: { v1: { filter: 'Service.Meta.version == v1' }, v2: { onlyPassing: true } },
    failover: { '*': { datacenters: ['dc2', 'dc3'] } },
  });
  const b = stack();
  new mesh.ServiceResolver(b, 'r', {
    name: 'web', connectTimeout: '60s', defaultSubset: 'v1',
    subsets: { v1: { filter: 'Service.Meta.version == v1' }, v2: { onlyPassing: true } },
    failover: { '*': { datacenters: ['dc2', 'dc3'] } },
  });
  expect(resources(a).r.spec).toEqual(resources(b).r.spec);
  expect(resources(a).r.spec).toEqual({
    name: 'web', namespace: 'default', meta: {}, connectTimeout: '1m0s', defaultSubset: 'v1',
    subsets: { v1: { filter: 'Service.Meta.version == v1', onlyPassing: false }, v2: { filter: '', onlyPassing: true } },
    redirect: null,
    failover: { '*': { service: '', serviceSubset: '', namespace: '', datacenters: ['dc2', 'dc3'] } },
  });
});

test('validation as the mesh system does it, naming path and field', () => {
  const s = stack();
  expect(() => new mesh.ServiceSplitter(s, 'split', { name: 'web', splits: [{ weight: 50 }, { weight: 40, service: 'b' }] }))
    .toThrow('prod/split: splits the sum of all split weights must be 100, not 90.000000');
  expect(() => new mesh.ServiceRouter(s, 'router', { name: 'web', routes: [{ match: { http: { pathPrefix: 'admin' } } }] }))
    .toThrow("prod/router: routes Route[0] doesn't start with '/': \"admin\"");
  expect(() => new mesh.ServiceResolver(s, 'res', { name: 'web', redirect: { service: 'a' }, failover: { '*': { datacenters: ['dc2'] } } }))
    .toThrow('prod/res: redirect Redirect and Failover cannot both be set');
  expect(() => new mesh.ServiceResolver(s, 'res2', { name: 'web', subsets: { V1: {} } })).toThrow(/prod\/res2: subsets Subset "V1" is invalid/);
  expect(() => new mesh.ServiceResolver(s, 'res3', { name: 'web', connectTimeout: '1d' })).toThrow(/prod\/res3: connectTimeout .*unknown unit "d"/);
  expect(() => new mesh.ServiceDefaults(s, 'sd', { name: '' })).toThrow('prod/sd: name Name is required');
  expect(() => new mesh.ProxyDefaults(s, 'pd', { protocol: mesh.MeshProtocol.HTTP, config: { protocol: 'grpc' } })).toThrow(/prod\/pd: protocol/);
});

test('ProxyDefaults: always global in default, protocol shorthand in config', () => {
  const s = stack();
  const pd = new mesh.ProxyDefaults(s, 'proxy', { protocol: mesh.MeshProtocol.GRPC, meshGateway: { mode: mesh.MeshGatewayMode.LOCAL } });
  expect(pd.entryId).toBe('proxy-defaults/global');
  expect(resources(s).proxy.spec).toEqual({ name: 'global', namespace: 'default', meta: {}, config: { protocol: 'grpc' }, meshGateway: { mode: 'local' } });
});

test('ServiceRouter spec: routes with match and destination in full', () => {
  const s = stack();
  new mesh.ServiceRouter(s, 'router', {
    name: 'web',
    routes: [{ match: { http: { pathPrefix: '/admin', header: [{ name: 'x-env', exact: 'prod' }] } }, destination: { service: 'admin', requestTimeout: '30s', numRetries: 2, retryOnStatusCodes: [503] } }],
  });
  expect(resources(s).router.spec.routes).toEqual([{
    match: { http: { pathPrefix: '/admin', pathExact: '', header: [{ name: 'x-env', exact: 'prod', present: false, prefix: '', suffix: '' }] } },
    destination: { service: 'admin', serviceSubset: '', namespace: '', prefixRewrite: '', requestTimeout: '30s', numRetries: 2, retryOnConnectFailure: false, retryOnStatusCodes: [503] },
  }]);
});

test('automatic ordering: routers and splitters depend on the defaults and resolvers of the services they name', () => {
  const s = stack();
  new mesh.ProxyDefaults(s, 'proxy', { protocol: mesh.MeshProtocol.HTTP });
  new mesh.ServiceDefaults(s, 'web-defaults', { name: 'web', protocol: mesh.MeshProtocol.HTTP });
  new mesh.ServiceDefaults(s, 'admin-defaults', { name: 'admin', protocol: mesh.MeshProtocol.HTTP });
  new mesh.ServiceDefaults(s, 'other-defaults', { name: 'other', protocol: mesh.MeshProtocol.HTTP });
  new mesh.ServiceResolver(s, 'web-resolver', { name: 'web', subsets: { v1: {}, v2: {} } });
  new mesh.ServiceSplitter(s, 'web-split', { name: 'web', splits: [{ weight: 50, serviceSubset: 'v1' }, { weight: 50, serviceSubset: 'v2' }] });
  new mesh.ServiceRouter(s, 'web-router', { name: 'web', routes: [{ match: { http: { pathPrefix: '/admin' } }, destination: { service: 'admin' } }] });
  const r = resources(s);
  expect(r['web-split'].dependsOn).toEqual(['proxy', 'web-defaults', 'web-resolver']);
  expect(r['web-router'].dependsOn).toEqual(['admin-defaults', 'proxy', 'web-defaults', 'web-resolver']);
  expect(r['web-resolver'].dependsOn).toEqual(['proxy', 'web-defaults']);
  expect(r['web-defaults'].dependsOn).toEqual([]);
});

test('DiscoveryChain data source spec and output references', () => {
  const s = stack();
  const chain = new mesh.DiscoveryChain(s, 'chain', {
    service: 'web', compileDatacenter: 'dc2', overrides: { connectTimeout: '60s', protocol: mesh.MeshProtocol.GRPC },
  });
  const r = resources(s).chain;
  expect(r.dataSource).toBe(true);
  expect(r.spec).toEqual({ service: 'web', namespace: 'default', compileDatacenter: 'dc2', overrides: { connectTimeout: '1m0s', protocol: 'grpc', meshGatewayMode: '' } });
  expect(() => new mesh.DiscoveryChain(s, 'bad', { service: 'web', overrides: { connectTimeout: 'soon' } })).toThrow(/prod\/bad: overrides.connectTimeout/);
  expect(() => new mesh.DiscoveryChain(s, 'bad2', { service: 'web', overrides: { meshGatewayMode: 'sideways' as any } }))
    .toThrow('prod/bad2: overrides.meshGatewayMode "sideways" must be one of "none", "local", "remote"');
  expect(() => new mesh.DiscoveryChain(s, 'bad3', { service: 'a/b' })).toThrow(/prod\/bad3: service "a\/b" must not contain "\/"/);
});

test('typed attributes: the chain\'s outputs are strings, an entry\'s indexes numbers; both render as references', () => {
  const s = stack();
  const chain = new mesh.DiscoveryChain(s, 'chain', { service: 'web' });
  const sd = new mesh.ServiceDefaults(s, 'sd', { name: 'web', protocol: mesh.MeshProtocol.HTTP });
  for (const v of [chain.protocol, chain.startNode, chain.targetIds, chain.chain, chain.customizationHash]) expect(typeof v).toBe('string');
  expect(typeof sd.modifyIndex).toBe('number');
  expect(typeof sd.createIndex).toBe('number');
  new mesh.ServiceResolver(s, 'res', { name: 'web', meta: { start: chain.startNode, targets: chain.targetIds } });
  const r = resources(s).res;
  expect(r.spec.meta).toEqual({ start: { $ref: 'chain', attr: 'startNode' }, targets: { $ref: 'chain', attr: 'targetIds' } });
  expect(r.dependsOn).toEqual(['chain', 'sd']);
});

test('ServiceDefaults.fromName: a lookup by the service\'s name (namespace optional) whose protocol feeds other constructs', () => {
  const s = stack();
  const web = mesh.ServiceDefaults.fromName(s, 'web', 'web');
  const team = mesh.ServiceDefaults.fromName(s, 'team-web', 'web', 'team');
  expect([web.serviceName, web.serviceNamespace, team.serviceNamespace]).toEqual(['web', 'default', 'team']);
  new mesh.ServiceResolver(s, 'res', { name: web.serviceName, meta: { protocol: web.serviceProtocol } });
  const r = resources(s);
  expect(r.web).toMatchObject({ kind: 'lookup:mesh.ServiceDefaults', dataSource: true, spec: { id: 'service-defaults/web', by: 'name' } });
  expect(r['team-web'].spec.id).toBe('team/service-defaults/web');
  expect(r.res.spec.meta).toEqual({ protocol: { $ref: 'web', attr: 'protocol' } });
  expect(r.res.dependsOn).toEqual(['web']);
  // A managed ServiceDefaults is an IServiceDefaults too.
  const admin: mesh.IServiceDefaults = new mesh.ServiceDefaults(s, 'admin', { name: 'admin', namespace: 'team', protocol: mesh.MeshProtocol.GRPC });
  expect([admin.serviceName, admin.serviceNamespace, admin.serviceProtocol]).toEqual(['admin', 'team', 'grpc']);
});

test('props are checked against the schema at every depth, naming the field', () => {
  const s = stack();
  expect(() => new mesh.ServiceResolver(s, 'a', { name: 'web', subsets: { v1: { onlyPassing: 'yes' as any } } }))
    .toThrow('prod/a: subsets.v1.onlyPassing must be true or false (got "yes")');
  expect(() => new mesh.ServiceResolver(s, 'b', { name: 'web', failover: { '*': { datacenters: 'dc2' as any } } }))
    .toThrow('prod/b: failover.*.datacenters must be a list of strings (got "dc2")');
  expect(() => new mesh.ServiceDefaults(s, 'c', { name: 'web', meshGateway: { mode: 'sideways' as any } }))
    .toThrow('prod/c: meshGateway.mode "sideways" must be one of "none", "local", "remote"');
  expect(() => new mesh.ServiceDefaults(s, 'd', { name: 'a/b' })).toThrow('prod/d: name "a/b" must not contain "/", a control character, a quote, a backslash, "*", "{" or "}", nor be "." or ".."');
  expect(() => new mesh.ServiceDefaults(s, 'e', { name: 'web', protocol: 'HTTP' as any })).toThrow('prod/e: protocol "HTTP" must be one of "tcp", "http", "http2", "grpc"');
  expect(() => new mesh.ServiceRouter(s, 'f', { name: 'web', routes: [{ destination: { numRetries: -1 } }] }))
    .toThrow('prod/f: routes[0].destination.numRetries must be an integer from 0 (got -1)');
  expect(() => new mesh.ServiceSplitter(s, 'g', { name: 'web', splits: [{ weight: '100' as any }] })).toThrow('prod/g: splits[0].weight must be a number (got "100")');
  expect(() => new mesh.ServiceDefaults(s, 'h', { name: 'web', meta: { n: 1 as any } })).toThrow('prod/h: meta.n must be a string (got number)');
});
