import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import { PlanHookItem } from '../../lib/core/engine/registry';
import { HttpClient } from '../../lib/core/http/http-client';
import * as mesh from '../../lib/mesh';
import { diffChains } from '../../lib/mesh/traffic/chain-diff';
import { compileDiscoveryChain, decodeEntry } from '../../lib/mesh/compiler';
import { trafficDiffHook } from '../../lib/mesh/traffic/traffic-diff';
import { MGMT, serveMesh, Served } from './emulator/helpers';

let s: Served;
let http: HttpClient;
beforeEach(async () => {
  s = await serveMesh();
  http = new HttpClient({ api: 'mesh', baseUrl: s.api.address, authHeaders: { 'x-mesh-token': MGMT }, retries: 0 });
});
afterEach(async () => { await http.close(); await s.api.stop(); });

/** Specs of a stack's constructs, by address. */
function specs(build: (st: TerraformStack) => void): Record<string, { kind: string; spec: Record<string, unknown> }> {
  const st = new TerraformStack(new App(), 'prod');
  build(st);
  return ConvergeTesting.desiredState(st).resources;
}
const put = (body: unknown) => s.call('PUT', '/v1/config', { body }).then((r) => expect(r.status).toBe(200));
const run = (items: PlanHookItem[], withApi = true) =>
  trafficDiffHook({ stack: 'prod', items, http: (api) => (withApi && api === 'mesh' ? http : undefined) });

const http7 = (st: TerraformStack) => new mesh.ServiceDefaults(st, 'web-defaults', { name: 'web', protocol: mesh.MeshProtocol.HTTP });
const resolver = (st: TerraformStack, timeout = '5s') =>
  new mesh.ServiceResolver(st, 'web-resolver', { name: 'web', connectTimeout: timeout, subsets: { v1: { filter: 'Service.Meta.v == 1' }, v2: { filter: 'Service.Meta.v == 2' } } });

test('a new router and splitter: routes, split weights and targets are shown', async () => {
  const r = specs((st) => {
    http7(st); resolver(st);
    new mesh.ServiceDefaults(st, 'admin-defaults', { name: 'admin', protocol: mesh.MeshProtocol.HTTP });
    new mesh.ServiceSplitter(st, 'split', { name: 'web', splits: [{ weight: 90, serviceSubset: 'v1' }, { weight: 10, serviceSubset: 'v2' }] });
    new mesh.ServiceRouter(st, 'router', { name: 'web', routes: [{ match: { http: { pathPrefix: '/admin' } }, destination: { service: 'admin', requestTimeout: '30s' } }] });
  });
  const items: PlanHookItem[] = Object.entries(r).map(([address, x]) => ({ address, kind: x.kind, action: 'create', after: x.spec }));
  const res = await run(items);
  expect(res.errors).toEqual([]);
  expect(res.notes).toEqual(expect.arrayContaining([
    'traffic web: protocol tcp -> http',
    'traffic web: starts at router web (was web.default.dc1)',
    'traffic web: route added: path prefix /admin -> admin.default.dc1 (timeout 30s)',
    'traffic web: route added: catch-all path prefix / -> splitter web',
    'traffic web: split web added: v1.web.default.dc1 90%, v2.web.default.dc1 10%',
    'traffic web: target added: v1.web.default.dc1 (connect timeout 5s)',
    'traffic web: target removed: web.default.dc1',
    'traffic admin: protocol tcp -> http',
  ]));
});

test('updates against the entries the API holds: weights, timeouts, failover order', async () => {
  await put({ Kind: 'service-defaults', Name: 'web', Protocol: 'http' });
  await put({ Kind: 'service-resolver', Name: 'web', Subsets: { v1: { Filter: 'Service.Meta.v == 1' }, v2: { Filter: 'Service.Meta.v == 2' } }, Failover: { '*': { Datacenters: ['dc2', 'dc3'] } } });
  await put({ Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 90, ServiceSubset: 'v1' }, { Weight: 10, ServiceSubset: 'v2' }] });
  const before = specs((st) => {
    new mesh.ServiceResolver(st, 'web-resolver', { name: 'web', subsets: { v1: { filter: 'Service.Meta.v == 1' }, v2: { filter: 'Service.Meta.v == 2' } }, failover: { '*': { datacenters: ['dc2', 'dc3'] } } });
    new mesh.ServiceSplitter(st, 'split', { name: 'web', splits: [{ weight: 90, serviceSubset: 'v1' }, { weight: 10, serviceSubset: 'v2' }] });
  });
  const after = specs((st) => {
    new mesh.ServiceResolver(st, 'web-resolver', { name: 'web', connectTimeout: '15s', subsets: { v1: { filter: 'Service.Meta.v == 1' }, v2: { filter: 'Service.Meta.v == 2' } }, failover: { '*': { datacenters: ['dc3', 'dc2'] } } });
    new mesh.ServiceSplitter(st, 'split', { name: 'web', splits: [{ weight: 50, serviceSubset: 'v1' }, { weight: 50, serviceSubset: 'v2' }] });
  });
  const items: PlanHookItem[] = Object.keys(after).map((address) => ({
    address, kind: after[address].kind, action: 'update', before: before[address].spec, after: after[address].spec,
  }));
  const res = await run(items);
  expect(res.errors).toEqual([]);
  expect(res.notes).toEqual([
    'traffic web: split web: v1.web.default.dc1 90% -> 50%',
    'traffic web: split web: v2.web.default.dc1 10% -> 50%',
    'traffic web: connect timeout of v1.web.default.dc1: 5s -> 15s',
    'traffic web: failover of v1.web.default.dc1: [v1.web.default.dc2, v1.web.default.dc3] -> [v1.web.default.dc3, v1.web.default.dc2]',
    'traffic web: connect timeout of v2.web.default.dc1: 5s -> 15s',
    'traffic web: failover of v2.web.default.dc1: [v2.web.default.dc2, v2.web.default.dc3] -> [v2.web.default.dc3, v2.web.default.dc2]',
  ]);
});

test('a change that breaks compilation fails the plan with the compile error', async () => {
  await put({ Kind: 'service-defaults', Name: 'web', Protocol: 'http' });
  await put({ Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/a' } } }] });
  const before = specs((st) => http7(st))['web-defaults'].spec;
  const after = specs((st) => new mesh.ServiceDefaults(st, 'web-defaults', { name: 'web', protocol: mesh.MeshProtocol.TCP }))['web-defaults'].spec;
  const res = await run([{ address: 'web-defaults', kind: 'mesh.ServiceDefaults', action: 'update', before, after }]);
  expect(res.errors).toEqual(['traffic web: the planned change breaks the discovery chain: discovery chain "web" uses a protocol "tcp" that does not permit advanced routing or splitting behavior; '
    + 'service "web" needs an HTTP-family protocol: set protocol: HTTP (or HTTP2, GRPC) on web-defaults (mesh.ServiceDefaults)']);
  const del = await run([{ address: 'web-defaults', kind: 'mesh.ServiceDefaults', action: 'delete', before }]);
  expect(del.errors[0]).toMatch(/breaks the discovery chain/);
});

test('without API access the items\' last-applied specs are "before"; no mesh changes, no notes', async () => {
  const before = specs((st) => resolver(st, '5s'))['web-resolver'].spec;
  const after = specs((st) => resolver(st, '1m'))['web-resolver'].spec;
  const res = await run([{ address: 'web-resolver', kind: 'mesh.ServiceResolver', action: 'update', before, after }], false);
  expect(res).toEqual({ notes: ['traffic web: connect timeout of web.default.dc1: 5s -> 1m0s'], errors: [] });
  expect(await run([{ address: 'x', kind: 'secrets.KvSecret', action: 'create', after: {} }])).toEqual({ notes: [], errors: [] });
  expect(await run([{ address: 'web-resolver', kind: 'mesh.ServiceResolver', action: 'noop', before, after: before }])).toEqual({ notes: [], errors: [] });
});

test('diffChains: route redirected and removed, mesh gateway mode', () => {
  const TD = 'x.consul';
  const base = [decodeEntry({ Kind: 'proxy-defaults', Name: 'global', Config: { protocol: 'http' } })];
  const a = compileDiscoveryChain({ service: 'web', datacenter: 'dc1', trustDomain: TD, entries: [...base,
    decodeEntry({ Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/a' } }, Destination: { Service: 'a' } }, { Match: { HTTP: { PathPrefix: '/b' } }, Destination: { Service: 'b' } }] })] });
  const b = compileDiscoveryChain({ service: 'web', datacenter: 'dc1', trustDomain: TD, entries: [...base,
    decodeEntry({ Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/a' } }, Destination: { Service: 'c', NumRetries: 2 } }] })] });
  expect(diffChains(a, b)).toEqual([
    'route path prefix /a: -> a.default.dc1 becomes -> c.default.dc1 (2 retries)',
    'route removed: path prefix /b -> b.default.dc1',
    'target added: c.default.dc1 (connect timeout 5s)',
    'target removed: a.default.dc1',
    'target removed: b.default.dc1',
  ]);
  const r1 = compileDiscoveryChain({ service: 'web', datacenter: 'dc1', trustDomain: TD, entries: [decodeEntry({ Kind: 'service-resolver', Name: 'web', Redirect: { Datacenter: 'dc2' } })] });
  const r2 = compileDiscoveryChain({ service: 'web', datacenter: 'dc1', trustDomain: TD, entries: [decodeEntry({ Kind: 'service-resolver', Name: 'web', Redirect: { Datacenter: 'dc2' } }), decodeEntry({ Kind: 'proxy-defaults', Name: 'global', MeshGateway: { Mode: 'local' } })] });
  expect(diffChains(r1, r2)).toEqual(['mesh gateway of web.default.dc2: default -> local']);
});

test('the diff\'s reads (entry lists and the chain) go out together, not one round trip after another', async () => {
  let inFlight = 0;
  let most = 0;
  const paths: string[] = [];
  const watched = Object.create(http) as HttpClient;
  watched.request = async (req) => {
    paths.push(req.path);
    inFlight++; most = Math.max(most, inFlight);
    try { return await http.request(req); } finally { inFlight--; }
  };
  const r = specs((st) => http7(st));
  const items: PlanHookItem[] = Object.entries(r).map(([address, x]) => ({ address, kind: x.kind, action: 'create', after: x.spec }));
  const res = await trafficDiffHook({ stack: 'prod', items, http: (api) => (api === 'mesh' ? watched : undefined) });
  expect(res).toEqual({ notes: ['traffic web: protocol tcp -> http'], errors: [] });
  // The same 6 reads as before (5 kinds' lists, 1 chain), at most 2 round trips deep: the first list
  // learns whether the server has namespaces, then the other lists go out at once.
  expect(paths).toHaveLength(6);
  expect(most).toBeGreaterThanOrEqual(4);
});
