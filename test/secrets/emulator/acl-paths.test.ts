import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { call, startSecrets } from '../emulator-helpers';

// The ACL must check the path and the operation the engine serves: a trailing "/" the engines
// strip, or a `list` parameter Go's ParseBool reads as true, must not walk around a policy.
describe('secrets emulator: the ACL checks what the engine serves', () => {
  let served: ServedApi;
  beforeAll(async () => { served = await startSecrets(); });
  afterAll(async () => { await served.stop(); });

  const tokenWith = async (policy: string): Promise<string> => {
    const name = `p${Math.random().toString(36).slice(2, 8)}`;
    expect((await call(served, 'PUT', `/v1/sys/policies/acl/${name}`, { body: { policy } })).status).toBe(204);
    const r = await call(served, 'POST', '/v1/auth/token/create', { body: { policies: [name] } });
    return r.body.auth.client_token;
  };

  test('a path denied exactly is denied with a trailing slash, on every engine', async () => {
    expect((await call(served, 'POST', '/v1/totp/keys/alice', { body: { generate: true, issuer: 'acme', account_name: 'alice' } })).status).toBe(200);
    const denied = ['totp/code/alice', 'database/creds/app', 'database/roles/app', 'directory/static-cred/app', 'directory/library/app',
      'platform/creds/app', 'platform/role/app', 'mesh/creds/app', 'mesh/roles/app', 'secret/data/app', 'secret/metadata/app'];
    const token = await tokenWith([
      'path "*" { capabilities = ["create", "read", "update", "delete", "list"] }',
      ...denied.map((p) => `path "${p}" { capabilities = ["deny"] }`),
    ].join('\n'));
    const walked: string[] = [];
    for (const p of denied) {
      for (const suffix of ['', '/', '//']) {
        const r = await call(served, 'GET', `/v1/${p}${suffix}`, { token });
        if (r.status !== 403) walked.push(`GET ${p}${suffix}: ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
    expect(walked).toEqual([]);
    // What the policy allows is still served, with or without the slash.
    const code = await call(served, 'GET', '/v1/totp/code/alice', { token: undefined });
    expect(code.status).toBe(200);
    expect((await call(served, 'GET', '/v1/totp/keys/', { token, headers: {} })).status).not.toBe(403);
  });

  test('?list= values ParseBool reads as true are checked as a LIST and served as one', async () => {
    expect((await call(served, 'POST', '/v1/secret/data/team/a', { body: { data: { x: '1' } } })).status).toBe(200);
    const readOnly = await tokenWith('path "secret/metadata/*" { capabilities = ["read"] }');
    const lister = await tokenWith('path "secret/metadata/*" { capabilities = ["list"] }');
    for (const v of ['1', 't', 'T', 'TRUE', 'true', 'True']) {
      const r = await call(served, 'GET', `/v1/secret/metadata/team/?list=${v}`, { token: readOnly });
      expect([v, r.status]).toEqual([v, 403]);
      const ok = await call(served, 'GET', `/v1/secret/metadata/team/?list=${v}`, { token: lister });
      expect([v, ok.status, ok.body?.data?.keys]).toEqual([v, 200, ['a']]);
    }
    for (const v of ['0', 'f', 'FALSE', 'false']) {
      const r = await call(served, 'GET', `/v1/secret/metadata/team/a?list=${v}`, { token: lister });
      expect([v, r.status]).toEqual([v, 403]);
      const ok = await call(served, 'GET', `/v1/secret/metadata/team/a?list=${v}`, { token: readOnly });
      expect([v, ok.status]).toEqual([v, 200]);
    }
    expect((await call(served, 'GET', '/v1/secret/metadata/team/?list=maybe', { token: lister })).status).toBe(400);
  });
});
