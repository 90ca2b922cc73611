import { MGMT, serveMesh, Served } from './helpers';

/**
 * Where the spec is silent the emulator answers as a real Consul 1.16 does (checked against the real
 * server by test/conformance/mesh.test.ts, which needs the binary; these hold without it, in the spec shape).
 */
let s: Served;
beforeEach(async () => { s = await serveMesh(); });
afterEach(async () => { await s.api.stop(); });

test('split weights are stored rounded to 0.01; negative weights summing to 100 are accepted', async () => {
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-defaults', Name: 'web', Protocol: 'http' } });
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-resolver', Name: 'web', Subsets: { v1: {}, v2: {} } } });
  expect((await s.call('PUT', '/v1/config', { body: { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 66.667, ServiceSubset: 'v1' }, { Weight: 33.333, ServiceSubset: 'v2' }] } })).body).toBe(true);
  expect((await s.call('GET', '/v1/config/service-splitter/web')).body.Splits).toEqual([{ Weight: 66.67, ServiceSubset: 'v1' }, { Weight: 33.33, ServiceSubset: 'v2' }]);
  expect((await s.call('PUT', '/v1/config', { body: { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: -10, ServiceSubset: 'v1' }, { Weight: 110, ServiceSubset: 'v2' }] } })).body).toBe(true);
});

test('Protocol "HTTP" is stored as "http"; a RequestTimeout of -1s is accepted', async () => {
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-defaults', Name: 'web', Protocol: 'HTTP' } });
  expect((await s.call('GET', '/v1/config/service-defaults/web')).body.Protocol).toBe('http');
  const r = await s.call('PUT', '/v1/config', { body: { Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/a' } }, Destination: { RequestTimeout: '-1s' } }] } });
  expect(r).toMatchObject({ status: 200, body: true });
});

test('a bad kind in a path is 500; ?cas= with no value is no cas; DELETE of an absent entry with cas answers true', async () => {
  expect(await s.call('GET', '/v1/config/bogus/x')).toMatchObject({ status: 500, text: 'invalid config entry kind: bogus\n' });
  expect((await s.call('PUT', '/v1/config?cas=', { body: { Kind: 'service-defaults', Name: 'web' } })).body).toBe(true);
  expect((await s.call('DELETE', '/v1/config/service-defaults/nope?cas=5')).body).toBe(true);
  const idx = (await s.call('GET', '/v1/config/service-defaults/web')).body.ModifyIndex;
  expect((await s.call('DELETE', `/v1/config/service-defaults/web?cas=${idx + 1}`)).body).toBe(false);
});

test('acl/token/self answers the SecretID and the policies; the token may come as X-Consul-Token', async () => {
  const r = await s.call('GET', '/v1/acl/token/self', { token: null, headers: { 'X-Consul-Token': MGMT } });
  expect(r.body).toMatchObject({ SecretID: MGMT, Policies: [{ Name: 'global-management' }] });
  const t = s.emu.createToken({ serviceRead: ['web'] });
  expect((await s.call('GET', '/v1/acl/token/self', { token: t.secretId })).body).toMatchObject({ AccessorID: t.accessorId, SecretID: t.secretId });
});

test('a list the token\'s ACL filtered says so', async () => {
  for (const n of ['web', 'api']) await s.call('PUT', '/v1/config', { body: { Kind: 'service-defaults', Name: n } });
  const t = s.emu.createToken({ serviceRead: ['web'] });
  const r = await s.call('GET', '/v1/config/service-defaults', { token: t.secretId });
  expect(r.body.map((e: { Name: string }) => e.Name)).toEqual(['web']);
  expect(r.headers.get('x-mesh-results-filtered-by-acls')).toBe('true');
  expect((await s.call('GET', '/v1/config/service-defaults')).headers.get('x-mesh-results-filtered-by-acls')).toBeNull();
});
