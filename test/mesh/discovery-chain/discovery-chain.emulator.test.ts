import { ManualClock } from '../../support/fake-clock';
import { serveMesh, Served, TD } from '../emulator/helpers';

// Blocking queries wait on this clock: its time moves only when a test advances it.
let clock: ManualClock;
let s: Served;
beforeEach(async () => {
  clock = new ManualClock();
  s = await serveMesh({ clock });
});
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

/** Turns the event loop (no time passes) until `ok()`: e.g. until a blocking query has started its wait. */
async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setImmediate(r));
}

/** Sends a blocking query and waits until it waits on the clock; `answered()` tells whether its answer has arrived. */
async function blocking(path: string) {
  const before = clock.waiting;
  let answered = false;
  const answer = s.call('GET', path).then((r) => { answered = true; return r; });
  await until(() => clock.waiting === before + 1 || answered);
  expect(answered).toBe(false);
  return { answer, answered: () => answered };
}

/** A round trip to the emulator: anything it was going to answer before has been answered by its end. */
const roundTrip = () => s.call('GET', '/v1/agent/self');

test('blocking query returns when a relevant entry changes, not for another service', async () => {
  const first = await s.call('GET', '/v1/discovery-chain/web');
  const index = first.headers.get('x-mesh-index');
  const q = await blocking(`/v1/discovery-chain/web?index=${index}&wait=30s`);
  await put({ Kind: 'service-defaults', Name: 'other', Protocol: 'http' });
  await roundTrip();
  expect(q.answered()).toBe(false);
  expect(clock.waiting).toBe(1);
  await put({ Kind: 'service-resolver', Name: 'web', ConnectTimeout: '9s' });
  const r = await q.answer;
  expect(r.body.Chain.Nodes['resolver:web.default.dc1'].Resolver.ConnectTimeout).toBe('9s');
  expect(Number(r.headers.get('x-mesh-index'))).toBeGreaterThan(Number(index));
  // Woken by the change, its wait on the clock is called off.
  expect(clock.waiting).toBe(0);
});

/** The query is still waiting 1ms before `ms` have passed on the clock, and answers the unchanged index 1 at `ms`. */
async function answersAfter(q: { answer: Promise<{ status: number; headers: Headers }>; answered: () => boolean }, ms: number) {
  clock.advance(ms - 1);
  await roundTrip();
  expect(q.answered()).toBe(false);
  expect(clock.waiting).toBe(1);
  clock.advance(1);
  const r = await q.answer;
  expect(r.status).toBe(200);
  expect(r.headers.get('x-mesh-index')).toBe('1');
}

test('blocking query answers the unchanged index when its wait elapses on the clock, not before', async () => {
  await answersAfter(await blocking('/v1/discovery-chain/web?index=1&wait=50ms'), 50);
});

test('blocking query: wait defaults to 5m and is capped at 10m (on the clock)', async () => {
  await answersAfter(await blocking('/v1/discovery-chain/web?index=1'), 5 * 60_000);
  await answersAfter(await blocking('/v1/discovery-chain/web?index=1&wait=1h'), 10 * 60_000);
});

test('blocking query: an older index answers at once; bad index and wait are 400', async () => {
  await put({ Kind: 'service-defaults', Name: 'web' });
  const now = await s.call('GET', '/v1/discovery-chain/web?index=1&wait=10m');
  expect(now.headers.get('x-mesh-index')).toBe('2');
  expect(clock.waiting).toBe(0);
  expect((await s.call('GET', '/v1/discovery-chain/web?index=abc')).status).toBe(400);
  expect((await s.call('GET', '/v1/discovery-chain/web?wait=forever')).text.trim()).toBe('Invalid wait time');
});

test('a blocking query still waiting when the emulator stops is answered', async () => {
  const q = await blocking('/v1/discovery-chain/web?index=1&wait=10m');
  s.emu.close();
  expect((await q.answer).headers.get('x-mesh-index')).toBe('1');
  expect(clock.waiting).toBe(0);
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
