import { authenticator } from 'otplib';
import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { ApiError } from '../../../lib/core/http/api-error';
import { PlatformEmulator } from '../../../lib/platform/emulator/platform-emulator';
import { MeshTokenClient } from '../../../lib/secrets/mesh-token/mesh-token-client';
import { PlatformTokenClient } from '../../../lib/secrets/platform-token/platform-token-client';
import { PushMfaClient } from '../../../lib/secrets/push-mfa/push-mfa-client';
import { SecretsClient } from '../../../lib/secrets/client/secrets-client';
import { TotpClient } from '../../../lib/secrets/totp/totp-client';
import { MGMT, serveMesh } from '../../mesh/emulator/helpers';
import { ROOT_TOKEN, startSecrets } from '../emulator-helpers';

let served: ServedApi;
let secrets: SecretsClient;
beforeEach(async () => {
  served = await startSecrets({ totp: 'totp', platform: 'platform', mesh: 'mesh' });
  secrets = SecretsClient.connect({ address: served.address, token: ROOT_TOKEN, options: { retries: 0 } });
});
afterEach(async () => { await secrets.close(); await served.stop(); });

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try { await p; } catch (e) { return e as ApiError; }
  throw new Error('expected an ApiError');
}

test('TotpClient: generate, import, read, list, codes, validate, delete', async () => {
  const totp = new TotpClient(secrets);
  const g = await totp.generateKey('totp', 'gen', { issuer: 'Acme', account_name: 'ann', qr_size: 0 });
  expect(g).toEqual({ url: expect.stringMatching(/^otpauth:\/\/totp\/Acme:ann\?/) });
  expect(await totp.generateKey('totp', 'quiet', { issuer: 'Acme', account_name: 'ann', exported: false })).toBeUndefined();
  const secret = authenticator.generateSecret(20);
  await totp.importKey('totp', 'imp', { key: secret, digits: 6 });
  expect(await totp.readKey('totp', 'imp')).toEqual({ account_name: '', algorithm: 'SHA1', digits: 6, issuer: '', period: 30 });
  expect(await totp.readKey('totp', 'none')).toBeUndefined();
  expect(await totp.listKeys('totp')).toEqual(['gen', 'imp', 'quiet']);
  const code = await totp.generateCode('totp', 'imp');
  expect(authenticator.clone({ window: 1 }).check(code, secret)).toBe(true);
  expect(await totp.validateCode('totp', 'imp', code)).toBe(true);
  const used = await apiError(totp.validateCode('totp', 'imp', code));
  expect(used.status).toBe(400);
  expect(used.apiMessages).toEqual(['code already used; wait until the next time period']);
  expect((await apiError(totp.generateCode('totp', 'none'))).apiMessages).toEqual(['unknown key: none']);
  await totp.deleteKey('totp', 'imp');
  await totp.deleteKey('totp', 'imp');
  expect(await totp.listKeys('totp')).toEqual(['gen', 'quiet']);
});

test('PlatformTokenClient: config, roles, creds, rotate-role against a served platform emulator', async () => {
  const platform = await ServedApi.start(new PlatformEmulator({ adminToken: 'padmin', rateLimit: 0 }), { port: 0 });
  try {
    const c = new PlatformTokenClient(secrets);
    await c.writeConfig('platform', { address: platform.address, token: 'padmin' });
    expect(await c.readConfig('platform')).toEqual({ address: platform.address, base_path: '/api/v2/' });
    await fetch(`${platform.address}/api/v2/organizations`, {
      method: 'POST', headers: { authorization: 'Bearer padmin', 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } } }),
    });
    await c.writeRole('platform', 'org', { organization: 'acme' });
    await c.writeRole('platform', 'me', { user_id: 'admin', ttl: '1h' });
    expect(await c.readRole('platform', 'org')).toEqual({ name: 'org', organization: 'acme', ttl: 0, max_ttl: 0 });
    expect(await c.readRole('platform', 'gone')).toBeUndefined();
    expect(await c.listRoles('platform')).toEqual(['me', 'org']);
    const a = await c.creds('platform', 'org');
    expect(a).toMatchObject({ lease_id: '', lease_duration: 0, renewable: false, organization: 'acme' });
    await c.rotateRole('platform', 'org');
    expect((await c.creds('platform', 'org')).token).not.toBe(a.token);
    const u = await c.creds('platform', 'me');
    expect(u).toMatchObject({ lease_duration: 3600, renewable: true, lease_id: expect.stringMatching(/^platform\/creds\/me\//) });
    expect((await apiError(c.rotateRole('platform', 'me'))).apiMessages).toEqual(['cannot rotate credentials for user roles']);
    await c.deleteRole('platform', 'org');
    await c.deleteRole('platform', 'org');
    await c.deleteConfig('platform');
    expect(await c.readConfig('platform')).toBeUndefined();
  } finally { await platform.stop(); }
});

test('MeshTokenClient: access, roles, creds against a served mesh emulator', async () => {
  const mesh = await serveMesh();
  try {
    const c = new MeshTokenClient(secrets);
    const address = new URL(mesh.api.address).host;
    await c.writeAccess('mesh', { address, token: MGMT });
    expect(await c.readAccess('mesh')).toEqual({ address, scheme: 'http' });
    await c.writeRole('mesh', 'web', { service_identities: 'web:dc1', ttl: 600 });
    expect(await c.readRole('mesh', 'web')).toMatchObject({ service_identities: ['web:dc1'], ttl: 600 });
    expect(await c.listRoles('mesh')).toEqual(['web']);
    const t = await c.creds('mesh', 'web');
    expect(t).toMatchObject({ lease_duration: 600, renewable: true, local: false });
    expect((await mesh.call('GET', '/v1/discovery-chain/web', { token: t.token })).status).toBe(200);
    const e = await apiError(c.writeRole('mesh', 'old', { token_type: 'management' }));
    expect(e.status).toBe(400);
    await c.deleteRole('mesh', 'web');
    expect(await c.readRole('mesh', 'web')).toBeUndefined();
  } finally { await mesh.api.stop(); }
});

test('PushMfaClient: create, get, update, list, delete', async () => {
  const c = new PushMfaClient(secrets);
  const input = { method_name: 'push', secret_key: 's', integration_key: 'i', api_hostname: 'h', push_info: 'x=1' };
  const id = await c.create(input);
  expect(await c.get(id)).toMatchObject({ id, name: 'push', pushinfo: 'x=1', type: 'pushmfa', use_passcode: false });
  await c.update(id, { ...input, use_passcode: true });
  expect((await c.get(id))?.use_passcode).toBe(true);
  expect(await c.list()).toEqual([id]);
  const dup = await apiError(c.create(input));
  expect(dup.apiMessages).toEqual(['method name "push" already in use']);
  await c.delete(id);
  expect(await c.get(id)).toBeUndefined();
  expect(await c.list()).toEqual([]);
});
