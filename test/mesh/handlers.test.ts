import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import { HandlerContext, PriorRecord, Spec } from '../../lib/core/engine/handler';
import { dataSourceHandler, registeredKinds, registeredPlanHooks, resourceHandler } from '../../lib/core/engine/registry';
import { HttpClient } from '../../lib/core/http/http-client';
import * as mesh from '../../lib/mesh';
import { MGMT, serveMesh, Served } from './emulator/helpers';
import { registerAllKinds } from '../../lib/kinds';

registerAllKinds();

let s: Served;
let http: HttpClient;
let ctx: HandlerContext;
beforeEach(async () => {
  s = await serveMesh();
  http = new HttpClient({ api: 'mesh', baseUrl: s.api.address, authHeaders: { 'x-mesh-token': MGMT }, retries: 0 });
  ctx = { address: 'prod/entry', http };
});
afterEach(async () => { await http.close(); await s.api.stop(); });

/** The spec a construct synthesizes. */
function specOf(build: (st: TerraformStack) => void, address: string): Spec {
  const st = new TerraformStack(new App(), 'prod');
  build(st);
  return ConvergeTesting.desiredState(st).resources[address].spec;
}
const prior = (id: string, spec: Spec): PriorRecord => ({ id, spec, outputs: {} });

test('every kind is registered, with the plan hook', () => {
  expect(registeredKinds().resources).toEqual(expect.arrayContaining(
    ['mesh.ServiceDefaults', 'mesh.ProxyDefaults', 'mesh.ServiceResolver', 'mesh.ServiceSplitter', 'mesh.ServiceRouter']));
  expect(registeredKinds().dataSources).toContain('mesh.DiscoveryChain');
  expect(registeredPlanHooks().length).toBeGreaterThan(0);
});

test('create, read back without drift (durations, defaults, server fields), update, delete', async () => {
  const h = resourceHandler('mesh.ServiceResolver');
  const spec = specOf((st) => new mesh.ServiceResolver(st, 'r', {
    name: 'web', connectTimeout: '90s', subsets: { v1: { filter: 'Service.Meta.v == 1' } }, failover: { v1: { datacenters: ['dc2'] } },
  }), 'r');
  expect(h.naturalId(spec)).toBe('service-resolver/web');
  expect(await h.read(ctx, 'service-resolver/web')).toBeUndefined();
  const w = await h.create(ctx, spec);
  expect(w.id).toBe('service-resolver/web');
  const got = await h.read(ctx, w.id);
  expect(got!.fields).toEqual(spec);
  expect(got!.outputs).toEqual({ createIndex: 2, modifyIndex: 2 });
  // The API holds the Go duration form.
  expect((await s.call('GET', '/v1/config/service-resolver/web')).body.ConnectTimeout).toBe('1m30s');

  const spec2 = { ...spec, connectTimeout: '5s' };
  await h.update(ctx, w.id, spec2, [{ path: 'connectTimeout', sensitive: false, replace: false }], prior(w.id, spec));
  expect((await h.read(ctx, w.id))!.fields.connectTimeout).toBe('5s');
  await h.delete(ctx, w.id, prior(w.id, spec2));
  expect(await h.read(ctx, w.id)).toBeUndefined();
  await h.delete(ctx, w.id, prior(w.id, spec2)); // already gone: success
});

test('an entry written outside converge without defaults reads as the construct\'s spec', async () => {
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-defaults', Name: 'web' } });
  const spec = specOf((st) => new mesh.ServiceDefaults(st, 'sd', { name: 'web' }), 'sd');
  expect((await resourceHandler('mesh.ServiceDefaults').read(ctx, 'service-defaults/web'))!.fields).toEqual(spec);
});

test('create refuses to overwrite an entry that appeared meanwhile; API errors keep their message', async () => {
  const h = resourceHandler('mesh.ServiceDefaults');
  const spec = specOf((st) => new mesh.ServiceDefaults(st, 'sd', { name: 'web', protocol: mesh.MeshProtocol.HTTP }), 'sd');
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-defaults', Name: 'web' } });
  await expect(h.create(ctx, spec)).rejects.toThrow(/written by someone else/);
  const splitter = specOf((st) => new mesh.ServiceSplitter(st, 'sp', { name: 'api', splits: [{ weight: 100 }] }), 'sp');
  await expect(resourceHandler('mesh.ServiceSplitter').create(ctx, splitter))
    .rejects.toThrow(/prod\/entry: mesh API PUT \/v1\/config failed with 500: discovery chain "api" uses a protocol "tcp"/);
});

test('namespaces and import ids', async () => {
  const h = resourceHandler('mesh.ServiceRouter');
  const defaults = specOf((st) => new mesh.ServiceDefaults(st, 'sd', { name: 'web', namespace: 'team', protocol: mesh.MeshProtocol.HTTP }), 'sd');
  await resourceHandler('mesh.ServiceDefaults').create(ctx, defaults);
  const spec = specOf((st) => new mesh.ServiceRouter(st, 'r', { name: 'web', namespace: 'team', routes: [{ match: { http: { pathPrefix: '/a' } } }] }), 'r');
  const w = await h.create(ctx, spec);
  expect(w.id).toBe('team/service-router/web');
  expect((await h.read(ctx, w.id))!.fields).toEqual(spec);
  expect(h.importId!('team/service-router/web')).toBe('team/service-router/web');
  expect(h.importId!('default/service-router/web')).toBe('service-router/web');
  expect(() => h.importId!('service-defaults/web')).toThrow(/is not a service-router id/);
  expect(() => h.importId!('web')).toThrow(/not a configuration entry id/);
});

test('ProxyDefaults and ServiceSplitter round trip', async () => {
  const pd = specOf((st) => new mesh.ProxyDefaults(st, 'p', { protocol: mesh.MeshProtocol.HTTP, meshGateway: { mode: mesh.MeshGatewayMode.REMOTE } }), 'p');
  const w = await resourceHandler('mesh.ProxyDefaults').create(ctx, pd);
  expect(w.id).toBe('proxy-defaults/global');
  expect((await resourceHandler('mesh.ProxyDefaults').read(ctx, w.id))!.fields).toEqual(pd);
  const sp = specOf((st) => new mesh.ServiceSplitter(st, 'sp', { name: 'web', splits: [{ weight: 33.33, service: 'a' }, { weight: 66.67 }] }), 'sp');
  const ws = await resourceHandler('mesh.ServiceSplitter').create(ctx, sp);
  expect((await resourceHandler('mesh.ServiceSplitter').read(ctx, ws.id))!.fields).toEqual(sp);
});

test('DiscoveryChain data source reads the compiled chain, POST only with overrides', async () => {
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-resolver', Name: 'web', Redirect: { Datacenter: 'dc2' } } });
  const h = dataSourceHandler('mesh.DiscoveryChain');
  const plain = specOf((st) => new mesh.DiscoveryChain(st, 'c', { service: 'web' }), 'c');
  const out = await h.read(ctx, plain);
  expect(out).toMatchObject({ protocol: 'tcp', startNode: 'resolver:web.default.dc2', targets: ['web.default.dc2'], targetIds: 'web.default.dc2', customizationHash: '' });
  expect(JSON.parse(out.chain as string).ServiceName).toBe('web');
  const over = specOf((st) => new mesh.DiscoveryChain(st, 'c', {
    service: 'web', overrides: { connectTimeout: '7s', protocol: mesh.MeshProtocol.GRPC, meshGatewayMode: mesh.MeshGatewayMode.REMOTE },
  }), 'c');
  expect((await h.read(ctx, over)).customizationHash).toBe('b94f529a');
  const dc = specOf((st) => new mesh.DiscoveryChain(st, 'c', { service: 'web', compileDatacenter: 'dc3' }), 'c');
  expect((await h.read(ctx, dc)).startNode).toBe('resolver:web.default.dc2');
});
