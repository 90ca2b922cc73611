import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { Acl, matches, morePrecise } from '../../../lib/secrets/emulator/acl/acl';
import { parsePolicy } from '../../../lib/secrets/emulator/acl/policy-parser';
import { SecretsEmulator } from '../../../lib/secrets/emulator/secrets-emulator';
import { ApiError } from '../../../lib/core/http/api-error';
import { HttpClient } from '../../../lib/core/http/http-client';
import { KvClient } from '../../../lib/secrets/kv/kv-client';
import { SecretsClient } from '../../../lib/secrets/client/secrets-client';
import { call, ROOT_TOKEN, startSecrets } from '../emulator-helpers';

describe('ACL policy parsing and matching', () => {
  test('HCL and JSON policies give the same rules; bad ones are refused', () => {
    const hcl = parsePolicy(`
      # comment
      path "secret/data/app/*" { capabilities = ["read", "list"] }
      path "database/roles/+/x" {
        capabilities = ["create"]
      }`);
    const json = parsePolicy('{"path":{"secret/data/app/*":{"capabilities":["read","list"]},"database/roles/+/x":{"capabilities":["create"]}}}');
    expect(hcl).toEqual(json);
    expect(() => parsePolicy('path "a" { capabilities = ["fly"] }')).toThrow(/invalid capability "fly"/);
    expect(() => parsePolicy('path "a*b" { capabilities = ["read"] }')).toThrow(/only appear at the end/);
    expect(() => parsePolicy('path "a" { policy = "read" }')).toThrow(/unsupported key "policy"/);
  });

  test('globs: * is a prefix, + one segment; exact beats glob; most specific glob wins; deny wins', () => {
    expect(matches('secret/data/*', 'secret/data/a/b')).toBe(true);
    expect(matches('secret/data/app*', 'secret/data/apple')).toBe(true);
    expect(matches('secret/+/app', 'secret/data/app')).toBe(true);
    expect(matches('secret/+/app', 'secret/data/app/x')).toBe(false);
    expect(matches('secret/+/app/*', 'secret/data/app/x')).toBe(true);
    expect(morePrecise('secret/data/app/*', 'secret/data/*')).toBe(true);
    expect(morePrecise('secret/data/+', 'secret/data/*')).toBe(true);
    const acl = new Acl([
      ...parsePolicy('path "secret/*" { capabilities = ["read", "update"] }'),
      ...parsePolicy('path "secret/data/app" { capabilities = ["read"] }'),
      ...parsePolicy('path "secret/data/app" { capabilities = ["create"] }'),
      ...parsePolicy('path "secret/data/locked/*" { capabilities = ["deny"] }'),
    ]);
    expect([...acl.capabilities('secret/data/app')].sort()).toEqual(['create', 'read']);
    expect([...acl.capabilities('secret/data/other')].sort()).toEqual(['read', 'update']);
    expect(acl.capabilities('secret/data/locked/x').size).toBe(0);
    expect(acl.capabilities('database/roles/x').size).toBe(0);
  });
});

describe('secrets emulator: policies and tokens', () => {
  let served: ServedApi;
  beforeAll(async () => { served = await startSecrets(); });
  afterAll(async () => { await served.stop(); });

  const tokenWith = async (policy: string, name = `p${Math.random().toString(36).slice(2, 8)}`): Promise<string> => {
    expect((await call(served, 'PUT', `/v1/sys/policies/acl/${name}`, { body: { policy } })).status).toBe(204);
    const r = await call(served, 'POST', '/v1/auth/token/create', { body: { policies: [name] } });
    expect(r.status).toBe(200);
    expect(r.body.auth.policies).toEqual(['default', name].sort());
    return r.body.auth.client_token;
  };

  test('policy CRUD: read back as written, listed with default and root; root cannot change', async () => {
    const text = 'path "secret/data/x" { capabilities = ["read"] }';
    expect((await call(served, 'PUT', '/v1/sys/policies/acl/Reader', { body: { policy: text } })).status).toBe(204);
    expect((await call(served, 'GET', '/v1/sys/policies/acl/reader')).body.data).toEqual({ name: 'reader', policy: text });
    expect((await call(served, 'GET', '/v1/sys/policies/acl?list=true')).body.data.keys).toEqual(['default', 'reader', 'root']);
    expect((await call(served, 'PUT', '/v1/sys/policies/acl/root', { body: { policy: text } })).body).toEqual({ errors: ['cannot update "root" policy'] });
    expect((await call(served, 'PUT', '/v1/sys/policies/acl/bad', { body: { policy: 'path "x" {' } })).status).toBe(400);
    expect((await call(served, 'DELETE', '/v1/sys/policies/acl/default')).status).toBe(400);
    expect((await call(served, 'DELETE', '/v1/sys/policies/acl/reader')).status).toBe(204);
    expect((await call(served, 'GET', '/v1/sys/policies/acl/reader')).status).toBe(404);
  });

  test('KV rule 1: create where the key is absent, update where it exists, patch for PATCH', async () => {
    const createOnly = await tokenWith('path "secret/data/r1/*" { capabilities = ["create"] }');
    const updateOnly = await tokenWith('path "secret/data/r1/*" { capabilities = ["update"] }');
    const patchOnly = await tokenWith('path "secret/data/r1/*" { capabilities = ["patch"] }');
    const write = (token: string, key: string) => call(served, 'POST', `/v1/secret/data/r1/${key}`, { token, body: { data: { a: '1' } } });
    expect((await write(updateOnly, 'k')).status).toBe(403);
    expect((await write(createOnly, 'k')).status).toBe(200);
    const again = await write(createOnly, 'k');
    expect(again).toMatchObject({ status: 403, body: { errors: ['permission denied'] } });
    expect((await write(updateOnly, 'k')).status).toBe(200);
    const patch = (token: string) => call(served, 'PATCH', '/v1/secret/data/r1/k', {
      token, body: { data: { b: '2' } }, headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect((await patch(updateOnly)).status).toBe(403);
    expect((await patch(patchOnly)).status).toBe(200);
    // Reading needs read; the root token keeps everything.
    expect((await call(served, 'GET', '/v1/secret/data/r1/k', { token: createOnly })).status).toBe(403);
    expect((await call(served, 'GET', '/v1/secret/data/r1/k')).body.data.data).toEqual({ a: '1', b: '2' });
  });

  test('database engine: create and update are told apart on connections and roles', async () => {
    const createOnly = await tokenWith('path "database/roles/*" { capabilities = ["create"] }');
    const body = { db_name: 'nodb', creation_statements: ['CREATE ROLE x'] };
    expect((await call(served, 'POST', '/v1/database/roles/r', { token: createOnly, body })).status).not.toBe(403);
    expect((await call(served, 'GET', '/v1/database/roles/r')).status).toBe(200);
    expect((await call(served, 'POST', '/v1/database/roles/r', { token: createOnly, body })).status).toBe(403);
  });

  test('unknown tokens, list, delete, child tokens, lookup-self, revoke-self', async () => {
    expect((await call(served, 'GET', '/v1/secret/data/x', { token: 'nope' })).status).toBe(403);
    const lister = await tokenWith('path "secret/metadata/*" { capabilities = ["list"] }\npath "auth/token/create" { capabilities = ["update"] }', 'lister');
    await call(served, 'POST', '/v1/secret/data/ls/a', { body: { data: { a: 1 } } });
    expect((await call(served, 'GET', '/v1/secret/metadata/ls/?list=true', { token: lister })).body.data.keys).toEqual(['a']);
    expect((await call(served, 'DELETE', '/v1/secret/metadata/ls/a', { token: lister })).status).toBe(403);
    // A child token holds a subset of its parent's policies only.
    expect((await call(served, 'POST', '/v1/auth/token/create', { token: lister, body: { policies: ['other'] } })).body)
      .toEqual({ errors: ['child policies must be subset of parent'] });
    const child = await call(served, 'POST', '/v1/auth/token/create', { token: lister, body: {} });
    expect(child.body.auth.policies).toEqual(['default', 'lister']);
    const self = await call(served, 'GET', '/v1/auth/token/lookup-self', { token: child.body.auth.client_token });
    expect(self.body.data.policies).toEqual(['default', 'lister']);
    expect((await call(served, 'POST', '/v1/auth/token/revoke-self', { token: child.body.auth.client_token })).status).toBe(204);
    expect((await call(served, 'GET', '/v1/auth/token/lookup-self', { token: child.body.auth.client_token })).status).toBe(403);
  });

  test('policies and tokens survive a snapshot and restore', async () => {
    const token = await tokenWith('path "secret/data/snap" { capabilities = ["create", "read"] }');
    const snapshot = JSON.parse(JSON.stringify(served.api.snapshot()));
    expect(JSON.stringify(snapshot)).not.toContain(token);
    const copy = await ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN }), { port: 0 });
    try {
      copy.api.restore(snapshot);
      expect((await call(copy, 'POST', '/v1/secret/data/snap', { token, body: { data: { a: 1 } } })).status).toBe(200);
      expect((await call(copy, 'GET', '/v1/secret/metadata/snap', { token })).status).toBe(403);
    } finally {
      await copy.stop();
    }
  });

  test("converge's error names the path and the capability the token lacks", async () => {
    const token = await tokenWith('path "secret/metadata/*" { capabilities = ["read"] }');
    const secrets = new SecretsClient(new HttpClient({ api: 'secrets', baseUrl: served.address, authHeaders: { 'X-Secrets-Token': token }, tokenVariable: 'SECRETS_TOKEN' }));
    const client = new KvClient(secrets);
    const err = await client.write('secret', 'named/key', { a: 1 }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(403);
    expect(err.message).toContain('permission denied');
    expect(err.message).toContain('needs "create" or "update" on "secret/data/named/key"');
    expect(err.message).not.toContain(token);
    const del = await client.deleteMetadata('secret', 'named/key').catch((e) => e);
    expect(del.message).toContain('needs "delete" on "secret/metadata/named/key"');
    await secrets.close();
  });
});
