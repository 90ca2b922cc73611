import { ApiError } from '../../../lib/core/http/api-error';
import { MeshClient } from '../../../lib/mesh/client';
import { MGMT, serveMesh, Served } from '../emulator/helpers';

let s: Served;
let client: MeshClient;
beforeEach(async () => {
  s = await serveMesh();
  client = MeshClient.connect({ address: s.api.address, token: MGMT, options: { retries: 0 } });
});
afterEach(async () => { await client.close(); await s.api.stop(); });

test('config entries: put with cas, get, list, delete', async () => {
  expect(await client.putConfigEntry({ Kind: 'service-defaults', Name: 'web', Protocol: 'http' }, { cas: 0 })).toBe(true);
  // A write that changes something is refused (one that changes nothing succeeds, as on the real server).
  expect(await client.putConfigEntry({ Kind: 'service-defaults', Name: 'web', Protocol: 'grpc' }, { cas: 0 })).toBe(false);
  const got = await client.getConfigEntry('service-defaults', 'web');
  expect(got).toMatchObject({ Kind: 'service-defaults', Name: 'web', Protocol: 'http', Namespace: 'default', CreateIndex: 2, ModifyIndex: 2 });
  expect(await client.getConfigEntry('service-defaults', 'nope')).toBeUndefined();
  const list = await client.listConfigEntries('service-defaults');
  expect(list.value.map((e) => e.Name)).toEqual(['web']);
  expect(list.index).toBe(2);
  expect(await client.deleteConfigEntry('service-defaults', 'web', { cas: 99 })).toBe(false);
  expect(await client.deleteConfigEntry('service-defaults', 'web')).toBe(true);
  expect(await client.getConfigEntry('service-defaults', 'web')).toBeUndefined();
});

test('a blocking list of a kind answers when an entry of the kind changes, with the new index', async () => {
  await client.putConfigEntry({ Kind: 'service-defaults', Name: 'web', Protocol: 'http' });
  const first = await client.listConfigEntries('service-defaults');
  let answered = false;
  const blocked = client.listConfigEntries('service-defaults', { index: first.index, wait: '20s' }).then((r) => { answered = true; return r; });
  // A read does not answer it; a write of the kind does (no timing asserted: the order is).
  await client.getConfigEntry('service-defaults', 'web');
  expect(answered).toBe(false);
  await client.putConfigEntry({ Kind: 'service-defaults', Name: 'api', Protocol: 'grpc' });
  const next = await blocked;
  expect(next.value.map((e) => e.Name).sort()).toEqual(['api', 'web']);
  expect(next.index).toBeGreaterThan(first.index);
});

test('errors keep status and message', async () => {
  const err = await client.putConfigEntry({ Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 100 }] }).catch((e) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err.status).toBe(500);
  expect(err.message).toContain('does not permit advanced routing or splitting behavior');
  expect(err.message).not.toContain(MGMT);
});

test('discovery chain: GET without overrides, POST with them, compile-dc, namespaces, consistency', async () => {
  await client.putConfigEntry({ Kind: 'service-defaults', Name: 'web', Namespace: 'team', Protocol: 'grpc' });
  const plain = await client.discoveryChain('web', { compileDatacenter: 'dc2', consistency: 'stale' });
  expect(plain.value).toMatchObject({ Datacenter: 'dc2', Protocol: 'tcp' });
  expect(plain.effectiveConsistency).toBe('stale');
  expect(plain.knownLeader).toBe(true);
  expect((await client.discoveryChain('web', { namespace: 'team', consistency: 'consistent' })).value.Protocol).toBe('grpc');
  expect((await client.discoveryChain('web', { namespaceHeader: 'team' })).value.Protocol).toBe('grpc');
  const over = await client.discoveryChain('web', { overrides: { OverrideConnectTimeout: '7s' } });
  expect(over.value.Nodes['resolver:web.default.dc1'].Resolver!.ConnectTimeout).toBe('7s');
  expect(over.value.CustomizationHash).toBeDefined();
});

test('blocking query through the client', async () => {
  const first = await client.discoveryChain('web');
  const pending = client.discoveryChain('web', { index: first.index, wait: '20s' });
  await client.putConfigEntry({ Kind: 'service-resolver', Name: 'web', ConnectTimeout: '2s' });
  const next = await pending;
  expect(next.index).toBeGreaterThan(first.index);
  expect(next.value.Nodes['resolver:web.default.dc1'].Resolver!.ConnectTimeout).toBe('2s');
});
