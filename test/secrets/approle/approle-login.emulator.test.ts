import { ManualClock } from '../../support/fake-clock';
import { advance, call, startSecrets } from '../emulator-helpers';

// AppRole login as OpenBao 2.7 answers it (checked against the dev server: approle-login-scenario.ts runs
// on both); here what needs the clock moved by hand: a secret id past its TTL. (Bound CIDRs are not checked.)
describe('AppRole login on the emulator', () => {
  test('a secret id past its TTL is refused as any wrong one; a role without bind_secret_id logs in by role id alone', async () => {
    const clock = new ManualClock();
    const s = await startSecrets(undefined, clock);
    try {
      expect((await call(s, 'POST', '/v1/sys/auth/ar', { body: { type: 'approle' } })).status).toBe(204);
      expect((await call(s, 'POST', '/v1/auth/ar/role/r', { body: { secret_id_ttl: '1m', token_ttl: '10m', token_policies: ['p'] } })).status).toBe(204);
      const roleId = (await call(s, 'GET', '/v1/auth/ar/role/r/role-id')).body.data.role_id;
      const secretId = (await call(s, 'POST', '/v1/auth/ar/role/r/secret-id')).body.data.secret_id;
      const ok = await call(s, 'POST', '/v1/auth/ar/login', { body: { role_id: roleId, secret_id: secretId }, token: null });
      expect(ok.status).toBe(200);
      expect(ok.body.auth).toMatchObject({ policies: ['default', 'p'], lease_duration: 600, metadata: { role_name: 'r' } });
      await advance(s, clock, 61_000);
      expect(await call(s, 'POST', '/v1/auth/ar/login', { body: { role_id: roleId, secret_id: secretId }, token: null }))
        .toMatchObject({ status: 400, body: { errors: ['invalid role or secret ID'] } });

      expect((await call(s, 'POST', '/v1/auth/ar/role/open', { body: { bind_secret_id: false, secret_id_bound_cidrs: ['127.0.0.1/32'] } })).status).toBe(204);
      const openId = (await call(s, 'GET', '/v1/auth/ar/role/open/role-id')).body.data.role_id;
      const open = await call(s, 'POST', '/v1/auth/ar/login', { body: { role_id: openId }, token: null });
      expect(open.status).toBe(200);
      // No token_ttl: the service's default, 768 hours.
      expect(open.body.auth).toMatchObject({ policies: ['default'], lease_duration: 768 * 3600 });
    } finally {
      await s.stop();
    }
  });
});
