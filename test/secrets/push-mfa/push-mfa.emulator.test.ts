import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { call, startSecrets } from '../emulator-helpers';

const BASE = '/v1/identity/mfa/method/pushmfa';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const method = { method_name: 'push', secret_key: 'sk-1', integration_key: 'ik-1', api_hostname: 'api-1.push.test' };

let s: ServedApi;
beforeEach(async () => { s = await startSecrets(); });
afterEach(async () => { await s.stop(); });

test('create answers a UUID; read answers the spec fields (push_info read as pushinfo)', async () => {
  const c = await call(s, 'POST', BASE, { body: { ...method, push_info: 'from=login', username_format: '{{identity.entity.name}}', use_passcode: true } });
  expect(c.status).toBe(200);
  const id = c.body.data.method_id;
  expect(id).toMatch(UUID);
  const r = await call(s, 'GET', `${BASE}/${id}`);
  expect(r.body.data).toEqual({
    api_hostname: 'api-1.push.test', id, integration_key: 'ik-1', mount_accessor: '', name: 'push', namespace_id: 'root',
    pushinfo: 'from=login', secret_key: 'sk-1', type: 'pushmfa', use_passcode: true, username_format: '{{identity.entity.name}}',
  });
});

test('update by path or by method_id; unknown id refused; required fields on every write', async () => {
  const id = (await call(s, 'POST', BASE, { body: method })).body.data.method_id;
  expect((await call(s, 'POST', `${BASE}/${id}`, { body: { ...method, api_hostname: 'api-2.push.test' } })).body.data.method_id).toBe(id);
  expect((await call(s, 'PUT', BASE, { body: { ...method, method_id: id, use_passcode: 'true' } })).status).toBe(200);
  const r = (await call(s, 'GET', `${BASE}/${id}`)).body.data;
  expect(r).toMatchObject({ api_hostname: 'api-1.push.test', use_passcode: true, name: 'push' });
  expect(await call(s, 'POST', `${BASE}/00000000-0000-0000-0000-000000000000`, { body: method }))
    .toMatchObject({ status: 400, body: { errors: ['invalid method ID'] } });
  for (const f of ['secret_key', 'integration_key', 'api_hostname']) {
    const body: Record<string, string> = { ...method, method_name: `m-${f}` };
    delete body[f];
    expect(await call(s, 'POST', BASE, { body })).toMatchObject({ status: 400, body: { errors: [`${f} is empty`] } });
  }
});

test('method_name is unique', async () => {
  const id = (await call(s, 'POST', BASE, { body: method })).body.data.method_id;
  expect(await call(s, 'POST', BASE, { body: method })).toMatchObject({ status: 400, body: { errors: ['method name "push" already in use'] } });
  const other = (await call(s, 'POST', BASE, { body: { ...method, method_name: 'other' } })).body.data.method_id;
  expect((await call(s, 'POST', `${BASE}/${other}`, { body: { ...method } })).status).toBe(400);
  expect((await call(s, 'POST', `${BASE}/${id}`, { body: method })).status).toBe(200);
});

test('list answers the UUIDs (404 when none); read and delete of absent ids', async () => {
  expect(await call(s, 'GET', `${BASE}?list=true`)).toMatchObject({ status: 404, body: { errors: [] } });
  const a = (await call(s, 'POST', BASE, { body: method })).body.data.method_id;
  const b = (await call(s, 'POST', BASE, { body: { ...method, method_name: 'b' } })).body.data.method_id;
  const l = await call(s, 'GET', `${BASE}?list=true`);
  expect([...l.body.data.keys].sort()).toEqual([a, b].sort());
  expect(l.body.data.key_info[a]).toMatchObject({ type: 'pushmfa', name: 'push' });
  expect((await call(s, 'GET', `${BASE}/not-a-uuid`)).status).toBe(404);
  expect((await call(s, 'DELETE', `${BASE}/${a}`)).status).toBe(204);
  expect((await call(s, 'DELETE', `${BASE}/${a}`)).status).toBe(204);
  expect((await call(s, 'GET', `${BASE}/${a}`)).status).toBe(404);
  expect((await call(s, 'PATCH', `${BASE}/${b}`, { body: {} })).status).toBe(405);
});

test('delete refused while a login enforcement (seeded by admin) uses the method', async () => {
  const id = (await call(s, 'POST', BASE, { body: method })).body.data.method_id;
  expect((await call(s, 'POST', '/__admin/mfa/enforcements', { body: { name: 'ssh-login', mfa_method_ids: [id] } })).status).toBe(204);
  expect((await call(s, 'POST', '/__admin/mfa/enforcements', { body: { name: 'x', mfa_method_ids: ['nope'] } })).status).toBe(400);
  expect((await call(s, 'GET', '/__admin/mfa/enforcements')).body.enforcements).toEqual([{ name: 'ssh-login', mfa_method_ids: [id] }]);
  const d = await call(s, 'DELETE', `${BASE}/${id}`);
  expect(d.status).toBe(400);
  expect(d.body.errors[0]).toMatch(/used by login enforcement\(s\) "ssh-login"/);
  expect((await call(s, 'DELETE', '/__admin/mfa/enforcements/ssh-login')).status).toBe(204);
  expect((await call(s, 'DELETE', `${BASE}/${id}`)).status).toBe(204);
});

test('methods and enforcements survive snapshot and restore, sealed', async () => {
  const id = (await call(s, 'POST', BASE, { body: method })).body.data.method_id;
  await call(s, 'POST', '/__admin/mfa/enforcements', { body: { name: 'e', mfa_method_ids: [id] } });
  const snap = JSON.parse(JSON.stringify(s.api.snapshot()));
  expect(JSON.stringify(snap)).not.toContain('sk-1');
  const t = await startSecrets();
  try {
    t.api.restore(snap);
    expect((await call(t, 'GET', `${BASE}/${id}`)).body.data.secret_key).toBe('sk-1');
    expect((await call(t, 'DELETE', `${BASE}/${id}`)).status).toBe(400);
  } finally { await t.stop(); }
});

test('the default mounts include totp, platform and mesh', async () => {
  const m = (await call(s, 'GET', '/__admin/mounts')).body.mounts;
  expect(m).toMatchObject({ secret: { type: 'kv' }, totp: { type: 'totp' }, platform: { type: 'platform' }, mesh: { type: 'mesh' } });
});
