import { MGMT, serveMesh, Served } from './helpers';

let s: Served;
beforeEach(async () => { s = await serveMesh(); });
afterEach(async () => { await s.api.stop(); });

test('missing and unknown tokens are 403', async () => {
  const none = await s.call('GET', '/v1/discovery-chain/web', { token: null });
  expect(none.status).toBe(403);
  expect(none.text.trim()).toBe('Permission denied: anonymous token lacks permission \'service:read\' on "web"');
  expect((await s.call('PUT', '/v1/config', { token: null, body: { Kind: 'service-defaults', Name: 'web' } })).status).toBe(403);
  expect((await s.call('GET', '/v1/config/proxy-defaults', { token: null })).status).toBe(200);
  const wrong = await s.call('GET', '/v1/discovery-chain/web', { token: 'nope' });
  expect(wrong.status).toBe(403);
  expect(wrong.text.trim()).toBe('ACL not found');
});

test('Authorization: Bearer is accepted', async () => {
  const r = await s.call('GET', '/v1/discovery-chain/web', { token: null, headers: { Authorization: `Bearer ${MGMT}` } });
  expect(r.status).toBe(200);
});

test('service:read: the chain and entries of the named services only; writes need write rules', async () => {
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-defaults', Name: 'api' } });
  const { secretId, accessorId } = s.emu.createToken({ serviceRead: ['web'] });
  expect((await s.call('GET', '/v1/discovery-chain/web', { token: secretId })).status).toBe(200);
  const denied = await s.call('GET', '/v1/discovery-chain/api', { token: secretId });
  expect(denied.status).toBe(403);
  expect(denied.text).toContain(`token with AccessorID '${accessorId}' lacks permission 'service:read' on "api"`);
  expect((await s.call('GET', '/v1/config/service-defaults/api', { token: secretId })).status).toBe(403);
  expect((await s.call('GET', '/v1/config/service-defaults', { token: secretId })).body).toEqual([]);
  expect((await s.call('PUT', '/v1/config', { token: secretId, body: { Kind: 'service-defaults', Name: 'web' } })).status).toBe(403);
  // A token's rules apply in its own namespace.
  expect((await s.call('GET', '/v1/discovery-chain/web?ns=team', { token: secretId })).status).toBe(403);
});

test('admin interface: policies and tokens, management token only', async () => {
  expect((await s.call('GET', '/__admin/', { token: 'x' })).status).toBe(403);
  expect((await s.call('GET', '/__admin/')).body.endpoints.length).toBeGreaterThan(3);
  const pol = await s.call('POST', '/__admin/policies', { body: { name: 'web-writer', serviceWrite: ['web'] } });
  expect(pol.status).toBe(200);
  const tok = await s.call('POST', '/__admin/tokens', { body: { policies: ['web-writer'] } });
  expect(tok.body).toEqual({ secretId: expect.any(String), accessorId: expect.any(String) });
  expect((await s.call('PUT', '/v1/config', { token: tok.body.secretId, body: { Kind: 'service-defaults', Name: 'web' } })).body).toBe(true);
  expect((await s.call('PUT', '/v1/config', { token: tok.body.secretId, body: { Kind: 'service-defaults', Name: 'api' } })).status).toBe(403);
  const list = await s.call('GET', '/__admin/tokens');
  expect(list.text).not.toContain(tok.body.secretId);
  expect((await s.call('POST', '/__admin/tokens', { body: { policies: ['nope'] } })).status).toBe(400);
  const mgmt = await s.call('POST', '/__admin/tokens', { body: { policies: ['global-management'] } });
  expect((await s.call('PUT', '/v1/config', { token: mgmt.body.secretId, body: { Kind: 'proxy-defaults', Name: 'global' } })).body).toBe(true);
  expect((await s.call('DELETE', `/__admin/tokens/${tok.body.accessorId}`)).status).toBe(200);
  expect((await s.call('GET', '/v1/discovery-chain/web', { token: tok.body.secretId })).text.trim()).toBe('ACL not found');
});
