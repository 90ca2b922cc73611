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
  expect(chain.protocol).toMatchObject({ $ref: 'chain', attr: 'protocol' });
  expect(() => new mesh.DiscoveryChain(s, 'bad', { service: 'web', overrides: { connectTimeout: 'soon' } })).toThrow(/prod\/bad: overrides.connectTimeout/);
});
