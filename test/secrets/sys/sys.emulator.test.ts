import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { SecretsEmulator } from '../../../lib/secrets/emulator/secrets-emulator';
import { call, ROOT_TOKEN, startSecrets } from '../emulator-helpers';

// sys/mounts, sys/auth and the AppRole method as OpenBao answers them (its wording checked against
// the dev server in ../shared/tools: sys-kinds.openbao.test.ts runs the same flows against it).
describe('sys/mounts and sys/auth', () => {
  test('enable, read, tune, disable a secrets engine; OpenBao\'s answers for absent, taken, reserved and unknown', async () => {
    const s = await startSecrets();
    try {
      const body = { type: 'totp', description: 'd', config: { default_lease_ttl: '1h', max_lease_ttl: '2h' } };
      expect((await call(s, 'POST', '/v1/sys/mounts/team/totp', { body })).status).toBe(204);
      const m = (await call(s, 'GET', '/v1/sys/mounts/team/totp')).body.data;
      expect(m).toMatchObject({ type: 'totp', description: 'd', options: {}, config: { default_lease_ttl: 3600, max_lease_ttl: 7200 } });
      expect(m.accessor).toMatch(/^totp_[0-9a-f]{8}$/);
      expect((await call(s, 'POST', '/v1/team/totp/keys/a', { body: { generate: true, issuer: 'x', account_name: 'y' } })).status).toBe(200);
      expect((await call(s, 'POST', '/v1/sys/mounts/team/totp/tune', { body: { description: 'e', default_lease_ttl: '30m' } })).status).toBe(204);
      expect((await call(s, 'GET', '/v1/sys/mounts/team/totp')).body.data).toMatchObject({ description: 'e', accessor: m.accessor, config: { default_lease_ttl: 1800 } });
      expect((await call(s, 'GET', '/v1/team/totp/keys/a')).status).toBe(200);
      expect((await call(s, 'POST', '/v1/sys/mounts/team/totp/tune', { body: { default_lease_ttl: '3h' } }))).toMatchObject({
        status: 400, body: { errors: ['backend max lease TTL of 7200 would be less than backend default lease TTL of 10800'] },
      });
      expect(await call(s, 'GET', '/v1/sys/mounts/nope')).toMatchObject({ status: 400, body: { errors: ['No secret engine mount at nope/'] } });
      expect(await call(s, 'POST', '/v1/sys/mounts/team/totp/sub', { body: { type: 'totp' } })).toMatchObject({ status: 400, body: { errors: ['path is already in use at team/totp/'] } });
      expect(await call(s, 'POST', '/v1/sys/mounts/sys/x', { body: { type: 'totp' } })).toMatchObject({ status: 400, body: { errors: ['cannot mount "sys/x/"'] } });
      expect(await call(s, 'POST', '/v1/sys/mounts/x', { body: { type: 'nosuch' } })).toMatchObject({ status: 400, body: { errors: ['plugin not found in the catalog: nosuch'] } });
      expect(await call(s, 'POST', '/v1/sys/mounts/x', { body: { type: 'approle' } })).toMatchObject({ status: 400, body: { errors: ['plugin not found in the catalog: approle'] } });
      expect((await call(s, 'GET', '/v1/sys/mounts')).body.data).toHaveProperty(['secret/', 'options'], { version: '2' });
      expect((await call(s, 'DELETE', '/v1/sys/mounts/team/totp')).status).toBe(204);
      expect((await call(s, 'DELETE', '/v1/sys/mounts/team/totp')).status).toBe(204);
      expect((await call(s, 'GET', '/v1/team/totp/keys/a')).status).toBe(404);
    } finally { await s.stop(); }
  });

  test('the mount table (description, TTLs, options, accessor) survives a snapshot and restore', async () => {
    const a = await startSecrets();
    expect((await call(a, 'POST', '/v1/sys/mounts/kv2', { body: { type: 'kv', description: 'kept', options: { version: '2' } } })).status).toBe(204);
    expect((await call(a, 'POST', '/v1/sys/auth/ar', { body: { type: 'approle', description: 'machines' } })).status).toBe(204);
    const accessor = (await call(a, 'GET', '/v1/sys/mounts/kv2')).body.data.accessor;
    const snap = JSON.parse(JSON.stringify(a.api.snapshot()));
    await a.stop();
    const emu = new SecretsEmulator({ rootToken: ROOT_TOKEN });
    emu.restore(snap);
    const b = await ServedApi.start(emu, { port: 0 });
    try {
      expect((await call(b, 'GET', '/v1/sys/mounts/kv2')).body.data).toMatchObject({ description: 'kept', options: { version: '2' }, accessor });
      expect((await call(b, 'GET', '/v1/sys/auth/ar')).body.data).toMatchObject({ type: 'approle', description: 'machines' });
    } finally { await b.stop(); }
  });

  test('an auth method needs sudo; an AppRole role\'s first write needs create; secret ids are issued, listed, looked up, destroyed', async () => {
    const s = await startSecrets();
    try {
      const policy = [
        'path "sys/auth/ar" { capabilities = ["read", "update", "delete"] }',
        'path "sys/auth/ar2" { capabilities = ["read", "update", "delete", "sudo"] }',
        'path "auth/ar2/role/ci" { capabilities = ["read", "update"] }',
      ].join('\n');
      expect((await call(s, 'POST', '/v1/sys/policies/acl/p', { body: { policy } })).status).toBe(204);
      const token = (await call(s, 'POST', '/v1/auth/token/create', { body: { policies: ['p'] } })).body.auth.client_token;
      expect((await call(s, 'POST', '/v1/sys/auth/ar', { body: { type: 'approle' }, token })).status).toBe(403);
      expect((await call(s, 'POST', '/v1/sys/auth/ar2', { body: { type: 'approle' }, token })).status).toBe(204);
      expect(await call(s, 'GET', '/v1/sys/auth/nope')).toMatchObject({ status: 400, body: { errors: ['No auth engine at nope/'] } });
      expect((await call(s, 'POST', '/v1/auth/ar2/role/ci', { body: { token_policies: 'B,a' }, token })).status).toBe(403);
      expect((await call(s, 'POST', '/v1/auth/ar2/role/ci', { body: { token_policies: 'B,a', secret_id_ttl: '1h' } })).status).toBe(204);
      expect((await call(s, 'POST', '/v1/auth/ar2/role/ci', { body: { token_ttl: '20m' }, token })).status).toBe(204);
      expect((await call(s, 'GET', '/v1/auth/ar2/role/ci')).body.data).toMatchObject({ token_policies: ['b', 'a'], token_ttl: 1200, secret_id_ttl: 3600, bind_secret_id: true });
      const issued = (await call(s, 'POST', '/v1/auth/ar2/role/ci/secret-id', { body: {} })).body.data;
      expect(issued).toMatchObject({ secret_id_ttl: 3600 });
      expect((await call(s, 'LIST', '/v1/auth/ar2/role/ci/secret-id')).body.data.keys).toEqual([issued.secret_id_accessor]);
      const lookup = (accessor: string) => call(s, 'POST', '/v1/auth/ar2/role/ci/secret-id-accessor/lookup', { body: { secret_id_accessor: accessor } });
      expect((await lookup(issued.secret_id_accessor)).status).toBe(200);
      expect((await call(s, 'POST', '/v1/auth/ar2/role/ci/secret-id-accessor/destroy', { body: { secret_id_accessor: issued.secret_id_accessor } })).status).toBe(204);
      expect((await lookup(issued.secret_id_accessor)).status).toBe(404);
      expect((await call(s, 'DELETE', '/v1/sys/auth/ar2')).status).toBe(204);
      expect((await call(s, 'GET', '/v1/auth/ar2/role/ci')).status).toBe(404);
    } finally { await s.stop(); }
  });
});
