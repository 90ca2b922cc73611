import { authenticator } from 'otplib';
import { ServedApi } from '../../lib/core/emulator-kit/server';
import { HandlerContext, Spec } from '../../lib/core/engine/handler';
import { dataSourceHandler, registeredKinds, resourceHandler } from '../../lib/core/engine/registry';
import { HttpClient } from '../../lib/core/http/http-client';
import { PlatformEmulator } from '../../lib/platform/emulator/platform-emulator';
import { KvClient } from '../../lib/secrets/kv/kv-client';
import { PlatformTokenClient } from '../../lib/secrets/platform-token/platform-token-client';
import { PushMfaClient } from '../../lib/secrets/push-mfa/push-mfa-client';
import { SecretsClient } from '../../lib/secrets/client/secrets-client';
import { TotpClient } from '../../lib/secrets/totp/totp-client';
import { MGMT, serveMesh } from '../mesh/emulator/helpers';
import { call, ROOT_TOKEN, startSecrets } from './emulator-helpers';
import { registerAllKinds } from '../../lib/kinds';

registerAllKinds();

let served: ServedApi;
let http: HttpClient;
let ctx: HandlerContext;
let secrets: SecretsClient;

beforeEach(async () => {
  served = await startSecrets({ secret: 'kv', totp: 'totp', platform: 'platform', mesh: 'mesh' });
  http = new HttpClient({ api: 'secrets', baseUrl: served.address, authHeaders: { 'x-secrets-token': ROOT_TOKEN }, retries: 0 });
  ctx = { address: 'stack/x', http };
  secrets = new SecretsClient(http);
});
afterEach(async () => { await http.close(); await served.stop(); });

const prior = (id: string, spec: Spec, outputs: Record<string, unknown> = {}) => ({ id, spec, outputs });

test('every kind is registered', () => {
  const kinds = registeredKinds();
  expect(kinds.resources).toEqual(expect.arrayContaining([
    'secrets.TotpKey', 'secrets.PlatformTokenConfig', 'secrets.PlatformTokenRole', 'secrets.MeshTokenConfig',
    'secrets.MeshTokenRole', 'secrets.PushMfaMethod',
  ]));
  expect(kinds.dataSources).toEqual(expect.arrayContaining(['secrets.KvSecretData', 'secrets.KvSecretSubkeys', 'secrets.TotpKeyInfo']));
  expect(dataSourceHandler('secrets.KvSecretData').sensitiveOutputs).toEqual(['data']);
});

describe('TotpKey', () => {
  const h = () => resourceHandler('secrets.TotpKey');
  const gen: Spec = {
    mount: 'totp', name: 'ann', generate: true, issuer: 'Acme', accountName: 'ann', algorithm: 'SHA1', digits: 6, period: 30,
    skew: 1, keySize: 20, exported: true, qrSize: 100,
  };

  test('a generated key: url and barcode as sensitive outputs; read answers the public fields; delete', async () => {
    const w = await h().create(ctx, gen);
    expect(w.id).toBe('totp/keys/ann');
    expect(w.outputs ?? {}).toEqual({});
    expect(w.sensitiveOutputs!.url).toMatch(/^otpauth:\/\/totp\/Acme:ann\?algorithm=SHA1&digits=6&issuer=Acme&period=30&secret=/);
    expect(Buffer.from(w.sensitiveOutputs!.barcode as string, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(await h().read(ctx, w.id, gen)).toEqual({
      fields: { mount: 'totp', name: 'ann', issuer: 'Acme', accountName: 'ann', algorithm: 'SHA1', digits: 6, period: 30 },
    });
    await h().delete(ctx, w.id, prior(w.id, gen));
    expect(await h().read(ctx, w.id, gen)).toBeUndefined();
  });

  test('not exported: no sensitive outputs; every field replaces; the plan warns about enrolled devices', async () => {
    const w = await h().create(ctx, { ...gen, exported: false });
    expect(w.sensitiveOutputs).toEqual({});
    expect(h().replaceFields).toEqual(expect.arrayContaining(['issuer', 'digits', 'period', 'algorithm', 'key', 'url', 'skew', 'qrSize']));
    expect(h().destroyWarning).toMatch(/enrolled .* need the new key/);
  });

  test('an imported key (resolved SecretValue) gives the independent library\'s codes; import ids are API paths', async () => {
    const secret = authenticator.generateSecret(20);
    const spec: Spec = { mount: 'totp', name: 'imp', generate: false, key: secret, issuer: 'I', accountName: 'a', algorithm: 'SHA1', digits: 6, period: 30, skew: 1 };
    const w = await h().create(ctx, spec);
    expect(w).toEqual({ id: 'totp/keys/imp' });
    const code = await new TotpClient(secrets).generateCode('totp', 'imp');
    expect(authenticator.clone({ window: 1 }).check(code, secret)).toBe(true);
    expect(h().importId!('totp/keys/app')).toBe('totp/keys/app');
    expect(h().importId!('team/totp/keys/app')).toBe('team/totp/keys/app');
    expect(() => h().importId!('totp/app')).toThrow(/<mount>\/keys\/<name>/);
    expect(h().naturalId(spec)).toBe('totp/keys/imp');
  });

  test('TotpKeyInfo reads the public fields; a missing key fails', async () => {
    await h().create(ctx, gen);
    const ds = dataSourceHandler('secrets.TotpKeyInfo');
    expect(await ds.read(ctx, { mount: 'totp', name: 'ann' })).toEqual({ issuer: 'Acme', accountName: 'ann', algorithm: 'SHA1', digits: 6, period: 30 });
    await expect(ds.read(ctx, { mount: 'totp', name: 'nope' })).rejects.toThrow(/TOTP key totp\/keys\/nope does not exist/);
  });
});

describe('PlatformTokenConfig and PlatformTokenRole', () => {
  test('config: the token is sent on create and only when it changed', async () => {
    const platform = await ServedApi.start(new PlatformEmulator({ adminToken: 'padmin', rateLimit: 0 }), { port: 0 });
    try {
      const h = resourceHandler('secrets.PlatformTokenConfig');
      const spec: Spec = { mount: 'platform', address: platform.address, token: 'wrong-token' };
      const w = await h.create(ctx, spec);
      expect(w.id).toBe('platform/config');
      expect(await h.read(ctx, w.id, spec)).toEqual({ fields: { mount: 'platform', address: platform.address } });
      // Someone fixes the token out of band; an update of the address alone must not send the old one again.
      const c = new PlatformTokenClient(secrets);
      await c.writeConfig('platform', { token: 'padmin' });
      await c.writeRole('platform', 'me', { user_id: 'admin' });
      await h.update(ctx, w.id, spec, [{ path: 'address', sensitive: false, replace: false }], prior(w.id, spec));
      expect((await c.creds('platform', 'me')).token).toMatch(/^emu\./);
      await h.update(ctx, w.id, spec, [{ path: 'token', sensitive: true, replace: false }], prior(w.id, spec));
      await expect(c.creds('platform', 'me')).rejects.toThrow(/401/);
      await h.delete(ctx, w.id, prior(w.id, spec));
      expect(await h.read(ctx, w.id, spec)).toBeUndefined();
      await h.delete(ctx, w.id, prior(w.id, spec));
    } finally { await platform.stop(); }
  });

  test('role: create, read with ttls in the canonical form with or without a spec, update, delete', async () => {
    const h = resourceHandler('secrets.PlatformTokenRole');
    const spec: Spec = { mount: 'platform', name: 'dev', organization: '', teamId: '', userId: 'user-1', ttl: '1h', maxTtl: '0s' };
    const w = await h.create(ctx, spec);
    expect(w.id).toBe('platform/role/dev');
    expect((await h.read(ctx, w.id, spec))!.fields).toEqual(spec);
    expect((await h.read(ctx, w.id))!.fields).toEqual(spec);
    await h.update(ctx, w.id, { ...spec, ttl: '2h' }, [{ path: 'ttl', sensitive: false, replace: false }], prior(w.id, spec));
    expect((await h.read(ctx, w.id, { ...spec, ttl: '2h' }))!.fields.ttl).toBe('2h');
    const org: Spec = { ...spec, name: 'org', userId: '', organization: 'acme', ttl: '0s' };
    await h.create(ctx, org);
    expect((await h.read(ctx, 'platform/role/org', org))!.fields).toEqual(org);
    await h.delete(ctx, w.id, prior(w.id, spec));
    expect(await h.read(ctx, w.id, spec)).toBeUndefined();
    expect(h.importId!('platform/role/dev')).toBe('platform/role/dev');
  });
});

describe('MeshTokenConfig and MeshTokenRole', () => {
  test('config and role against a served mesh emulator; the role\'s creds are accepted there', async () => {
    const mesh = await serveMesh();
    try {
      const address = new URL(mesh.api.address).host;
      const hc = resourceHandler('secrets.MeshTokenConfig');
      const cspec: Spec = { mount: 'mesh', address, scheme: 'http', token: MGMT, caCert: '', clientCert: '' };
      const cw = await hc.create(ctx, cspec);
      expect(cw.id).toBe('mesh/config/access');
      expect(await hc.read(ctx, cw.id, cspec)).toEqual({ fields: { mount: 'mesh', address, scheme: 'http' } });
      await hc.update(ctx, cw.id, cspec, [{ path: 'caCert', sensitive: false, replace: false }], prior(cw.id, cspec));

      const hr = resourceHandler('secrets.MeshTokenRole');
      const rspec: Spec = {
        mount: 'mesh', name: 'web', meshVersion: '1.13', meshPolicies: [], local: false, ttl: '10m', maxTtl: '0s', meshRoles: [],
        serviceIdentities: ['web:dc1'], nodeIdentities: [], meshNamespace: 'default', partition: 'default',
      };
      const rw = await hr.create(ctx, rspec);
      expect(rw.id).toBe('mesh/roles/web');
      expect((await hr.read(ctx, rw.id, rspec))!.fields).toEqual(rspec);
      const creds = await call(served, 'GET', '/v1/mesh/creds/web');
      expect(creds.body.lease_duration).toBe(600);
      expect((await mesh.call('GET', '/v1/discovery-chain/web', { token: creds.body.data.token })).status).toBe(200);
      await hr.delete(ctx, rw.id, prior(rw.id, rspec));
      expect(await hr.read(ctx, rw.id, rspec)).toBeUndefined();
      await hc.delete(ctx, cw.id, prior(cw.id, cspec));
    } finally { await mesh.api.stop(); }
  });
});

describe('PushMfaMethod', () => {
  const h = () => resourceHandler('secrets.PushMfaMethod');
  const spec: Spec = {
    methodName: 'push', secretKey: 'sk', integrationKey: 'ik', apiHostname: 'api.push.test', usernameFormat: '', pushInfo: 'a=b', usePasscode: false,
  };

  test('create (UUID id and output), read with the keys, find by name, update, delete refused while enforced', async () => {
    const w = await h().create(ctx, spec);
    expect(w.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(w.outputs).toEqual({ methodId: w.id });
    expect(await h().read(ctx, w.id, spec)).toEqual({
      // The keys the service answers are read (the engine compares them as secrets, by HMAC, never shown).
      fields: { methodName: 'push', apiHostname: 'api.push.test', usernameFormat: '', pushInfo: 'a=b', usePasscode: false, secretKey: 'sk', integrationKey: 'ik' },
      outputs: { methodId: w.id },
    });
    expect(h().naturalId(spec)).toBeUndefined();
    expect((await h().find!(ctx, spec)).map((c) => c.id)).toEqual([w.id]);
    expect(await h().find!(ctx, { ...spec, methodName: 'other' })).toEqual([]);
    await h().update(ctx, w.id, { ...spec, usePasscode: true }, [{ path: 'usePasscode', sensitive: false, replace: false }], prior(w.id, spec));
    expect((await new PushMfaClient(secrets).get(w.id))).toMatchObject({ use_passcode: true, secret_key: 'sk' });
    await call(served, 'POST', '/__admin/mfa/enforcements', { body: { name: 'login', mfa_method_ids: [w.id] } });
    await expect(h().delete(ctx, w.id, prior(w.id, spec))).rejects.toThrow(/used by login enforcement/);
    await call(served, 'DELETE', '/__admin/mfa/enforcements/login');
    await h().delete(ctx, w.id, prior(w.id, spec));
    expect(await h().read(ctx, w.id, spec)).toBeUndefined();
    expect(h().importId!(`identity/mfa/method/pushmfa/${w.id}`)).toBe(w.id);
    expect(() => h().importId!('identity/mfa/method/pushmfa/x')).toThrow(/<uuid>/);
  });
});

describe('KV data sources', () => {
  test('KvSecretData answers the current data and metadata; a deleted version fails the read', async () => {
    const kv = new KvClient(secrets);
    await kv.writeMetadata('secret', 'app/db', { custom_metadata: { owner: 'team' } });
    await kv.write('secret', 'app/db', { user: 'app', password: 'p1' });
    await kv.write('secret', 'app/db', { user: 'app', password: 'p2' });
    const ds = dataSourceHandler('secrets.KvSecretData');
    const out = await ds.read(ctx, { mount: 'secret', path: 'app/db', version: 0 });
    expect(out).toMatchObject({ data: { user: 'app', password: 'p2' }, version: 2, customMetadata: { owner: 'team' } });
    expect((await ds.read(ctx, { mount: 'secret', path: 'app/db', version: 1 })).data).toEqual({ user: 'app', password: 'p1' });
    await kv.deleteLatest('secret', 'app/db');
    await expect(ds.read(ctx, { mount: 'secret', path: 'app/db', version: 0 })).rejects.toThrow(/secret\/app\/db is deleted/);
    await expect(ds.read(ctx, { mount: 'secret', path: 'none', version: 0 })).rejects.toThrow(/secret\/none does not exist/);
  });

  test('KvSecretSubkeys answers the structure without values', async () => {
    await new KvClient(secrets).write('secret', 'app/cfg', { db: { user: 'u', pass: 'p' }, port: 1 });
    const ds = dataSourceHandler('secrets.KvSecretSubkeys');
    expect(await ds.read(ctx, { mount: 'secret', path: 'app/cfg', version: 0, depth: 0 }))
      .toEqual({ subkeys: { db: { user: null, pass: null }, port: null }, keys: ['db', 'port'], version: 1 });
    expect((await ds.read(ctx, { mount: 'secret', path: 'app/cfg', version: 0, depth: 1 })).subkeys).toEqual({ db: null, port: null });
    await expect(ds.read(ctx, { mount: 'secret', path: 'none', version: 0, depth: 0 })).rejects.toThrow(/does not exist/);
  });
});
