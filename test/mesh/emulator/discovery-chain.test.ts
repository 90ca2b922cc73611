import { serveMesh, Served, TD } from './helpers';

let s: Served;
beforeEach(async () => { s = await serveMesh(); });
afterEach(async () => { await s.api.stop(); });

const put = (body: unknown) => s.call('PUT', '/v1/config', { body }).then((r) => { expect(r.status).toBe(200); return r; });

test('a service no entry names gets the default chain', async () => {
  const r = await s.call('GET', '/v1/discovery-chain/web');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/application\/json/);
  expect(r.body.Chain).toMatchObject({
    ServiceName: 'web', Namespace: 'default', Datacenter: 'dc1', Protocol: 'tcp', StartNode: 'resolver:web.default.dc1',
  });
  expect(r.body.Chain.Nodes['resolver:web.default.dc1'].Resolver).toEqual({ Default: true, ConnectTimeout: '5s', Target: 'web.default.dc1' });
  expect(r.body.Chain.Targets['web.default.dc1'].SNI).toBe(`web.default.dc1.internal.${TD}`);
  expect(r.body.Chain.CustomizationHash).toBeUndefined();
  expect(r.headers.get('x-mesh-index')).toBe('1');
  expect(r.headers.get('x-mesh-knownleader')).toBe('true');
});

test('compiles stored entries: router, splitter, compile-dc', async () => {
  await put({ Kind: 'service-defaults', Name: 'web', Protocol: 'http' });
  await put({ Kind: 'service-resolver', Name: 'web', Subsets: { v1: { Filter: 'Service.Meta.v == 1' }, v2: { Filter: 'Service.Meta.v == 2' } } });
  await put({ Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 75, ServiceSubset: 'v1' }, { Weight: 25, ServiceSubset: 'v2' }] });
  await put({ Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/v2' } }, Destination: { ServiceSubset: 'v2' } }] });
  const r = await s.call('GET', '/v1/discovery-chain/web?compile-dc=dc2');
  expect(r.body.Chain.StartNode).toBe('router:web');
  expect(r.body.Chain.Datacenter).toBe('dc2');
  expect(r.body.Chain.Nodes['router:web'].Routes.map((x: any) => x.NextNode)).toEqual(['resolver:v2.web.default.dc2', 'splitter:web']);
  expect(r.body.Chain.Nodes['splitter:web'].Splits).toEqual([
    { Weight: 75, NextNode: 'resolver:v1.web.default.dc2' }, { Weight: 25, NextNode: 'resolver:v2.web.default.dc2' }]);
  // Only the spec's fields, empty ones left out (Go's omitempty): no OnlyPassing=false, no destination Namespace.
  expect(r.body.Chain.Targets['v2.web.default.dc2'].Subset).toEqual({ Filter: 'Service.Meta.v == 2' });
  expect(r.body.Chain.Nodes['router:web'].Routes.map((x: any) => x.Definition.Destination)).toEqual([{ ServiceSubset: 'v2' }, { Service: 'web' }]);
});

test('POST with overrides, snake_case keys, hash; 400 for bad bodies and modes', async () => {
  await put({ Kind: 'service-resolver', Name: 'web', Redirect: { Datacenter: 'dc2' } });
  const r = await s.call('POST', '/v1/discovery-chain/web', { body: { OverrideConnectTimeout: '7s', OverrideProtocol: 'grpc', OverrideMeshGateway: { Mode: 'remote' } } });
  expect(r.status).toBe(200);
  expect(r.body.Chain.CustomizationHash).toBe('b94f529a');
  expect(r.body.Chain.Targets['web.default.dc2'].MeshGateway).toEqual({ Mode: 'remote' });
  const snake = await s.call('POST', '/v1/discovery-chain/web', { body: { override_connect_timeout: '22s', override_protocol: 'grpc', override_mesh_gateway: { mode: 'local' } } });
  expect(snake.body.Chain.CustomizationHash).toBe('98809527');
  const bad = await s.call('POST', '/v1/discovery-chain/web', { body: '{"OverrideProtocol":' });
  expect(bad.status).toBe(400);
  expect(bad.text).toMatch(/^Request decoding failed: /);
  const badTimeout = await s.call('POST', '/v1/discovery-chain/web', { body: { OverrideConnectTimeout: 'soon' } });
  expect(badTimeout.status).toBe(400);
  const mode = await s.call('POST', '/v1/discovery-chain/web', { body: { OverrideMeshGateway: { Mode: 'sideways' } } });
  expect(mode.status).toBe(400);
  expect(mode.text.trim()).toBe('Invalid OverrideMeshGateway.Mode parameter');
});

test('namespace: ns, then X-Mesh-Namespace, then the token\'s namespace', async () => {
  await put({ Kind: 'service-defaults', Name: 'web', Namespace: 'team', Protocol: 'http' });
  await put({ Kind: 'service-defaults', Name: 'web', Namespace: 'ops', Protocol: 'grpc' });
  expect((await s.call('GET', '/v1/discovery-chain/web?ns=team', { headers: { 'X-Mesh-Namespace': 'ops' } })).body.Chain).toMatchObject({ Namespace: 'team', Protocol: 'http' });
  expect((await s.call('GET', '/v1/discovery-chain/web', { headers: { 'X-Mesh-Namespace': 'ops' } })).body.Chain.Protocol).toBe('grpc');
  const { secretId } = s.emu.createToken({ serviceRead: ['web'], namespace: 'ops' });
  expect((await s.call('GET', '/v1/discovery-chain/web', { token: secretId })).body.Chain).toMatchObject({ Namespace: 'ops', Protocol: 'grpc' });
});

test('consistency modes; stale with consistent is 400; unknown dc', async () => {
  expect((await s.call('GET', '/v1/discovery-chain/web?stale')).headers.get('x-mesh-effective-consistency')).toBe('stale');
  expect((await s.call('GET', '/v1/discovery-chain/web?consistent')).headers.get('x-mesh-effective-consistency')).toBe('consistent');
  expect((await s.call('GET', '/v1/discovery-chain/web?stale&consistent')).status).toBe(400);
  expect((await s.call('GET', '/v1/discovery-chain/web?dc=dc3')).body.Chain.Datacenter).toBe('dc3');
  const far = await s.call('GET', '/v1/discovery-chain/web?dc=dc9');
  expect(far.status).toBe(500);
  expect(far.text.trim()).toBe('No path to datacenter');
});

test('blocking query returns when a relevant entry changes, not for another service', async () => {
  const first = await s.call('GET', '/v1/discovery-chain/web');
  const index = first.headers.get('x-mesh-index');
  let answered = false;
  const pending = s.call('GET', `/v1/discovery-chain/web?index=${index}&wait=30s`).then((r) => { answered = true; return r; });
  await put({ Kind: 'service-defaults', Name: 'other', Protocol: 'http' });
  // A round trip that surely passes after the irrelevant write was processed.
  await s.call('GET', '/v1/config/service-defaults/other');
  expect(answered).toBe(false);
  await put({ Kind: 'service-resolver', Name: 'web', ConnectTimeout: '9s' });
  const r = await pending;
  expect(r.body.Chain.Nodes['resolver:web.default.dc1'].Resolver.ConnectTimeout).toBe('9s');
  expect(Number(r.headers.get('x-mesh-index'))).toBeGreaterThan(Number(index));
});

test('blocking query answers when wait elapses; an older index answers at once', async () => {
  const r = await s.call('GET', '/v1/discovery-chain/web?index=1&wait=50ms');
  expect(r.status).toBe(200);
  await put({ Kind: 'service-defaults', Name: 'web' });
  const now = await s.call('GET', '/v1/discovery-chain/web?index=1&wait=10m');
  expect(now.headers.get('x-mesh-index')).toBe('2');
  expect((await s.call('GET', '/v1/discovery-chain/web?index=abc')).status).toBe(400);
  expect((await s.call('GET', '/v1/discovery-chain/web?wait=forever')).text.trim()).toBe('Invalid wait time');
});

test('compile errors are 500 with the message (state restored from a snapshot written elsewhere)', async () => {
  s.emu.restore({
    index: 5,
    entries: { 'service-splitter/default/web': { entry: { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 100 }] }, namespace: 'default', createIndex: 5, modifyIndex: 5 } },
  });
  const r = await s.call('GET', '/v1/discovery-chain/web');
  expect(r.status).toBe(500);
  expect(r.text.trim()).toBe('discovery chain "web" uses a protocol "tcp" that does not permit advanced routing or splitting behavior');
});

test('missing chain name, unknown paths and methods', async () => {
  expect((await s.call('GET', '/v1/discovery-chain/')).text.trim()).toBe('Missing chain name');
  expect((await s.call('GET', '/v1/nothing')).status).toBe(404);
  expect((await s.call('DELETE', '/v1/discovery-chain/web')).status).toBe(405);
});
