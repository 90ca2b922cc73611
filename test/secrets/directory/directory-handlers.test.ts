import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { HandlerContext, PriorRecord, Spec } from '../../../lib/core/engine/handler';
import { registeredKinds } from '../../../lib/core/engine/registry';
import { HttpClient, HttpRequest } from '../../../lib/core/http/http-client';
import { DirectoryClient } from '../../../lib/secrets/directory/directory-client';
import { SecretsClient } from '../../../lib/secrets/client/secrets-client';
import { diffSpec } from '../../../lib/core/engine/diff';
import { resolveSpec } from '../../../lib/core/engine/resolve-spec';
import { directoryConfigHandler } from '../../../lib/secrets/directory/directory-config.handler';
import { directoryLibrarySetHandler } from '../../../lib/secrets/directory/directory-library-set.handler';
import { directoryRoleHandler } from '../../../lib/secrets/directory/directory-role.handler';
import { call, ROOT_TOKEN, startSecrets } from '../emulator-helpers';
import { registerAllKinds } from '../../../lib/kinds';

registerAllKinds();

let served: ServedApi;
let http: HttpClient;
let ctx: HandlerContext;
let dir: DirectoryClient;
let sent: HttpRequest[];

const BINDDN = 'CN=converge,OU=svc,DC=example,DC=com';
const ADMIN = '/__admin/directory/directory/accounts';

beforeEach(async () => {
  served = await startSecrets();
  http = new HttpClient({ api: 'secrets', baseUrl: served.address, authHeaders: { 'x-secrets-token': ROOT_TOKEN }, retries: 0 });
  sent = [];
  const request = http.request.bind(http);
  (http as any).request = (r: HttpRequest) => { sent.push(r); return request(r); };
  ctx = { address: 'stack/dir', http };
  dir = new DirectoryClient(new SecretsClient(http));
  await call(served, 'POST', `${ADMIN}/${BINDDN}`, { body: { password: 'bind-1' } });
  for (const a of ['svc-a', 'svc-b', 'svc-c']) await call(served, 'POST', `${ADMIN}/${a}`, { body: {} });
});
afterEach(async () => { await http.close(); await served.stop(); });

const prior = (id: string, spec: Spec): PriorRecord => ({ id, spec, outputs: {} });
const configBodies = () => sent.filter((r) => r.method === 'POST' && r.path === '/v1/directory/config').map((r) => r.body as Record<string, unknown>);

function configSpec(over: Partial<Spec> = {}): Spec {
  return {
    mount: 'directory', binddn: BINDDN, bindpass: 'bind-1', url: 'ldap://127.0.0.1', userdn: '', upndomain: '', certificate: '',
    insecureTls: false, starttls: false, tlsMinVersion: 'tls12', tlsMaxVersion: 'tls12', requestTimeout: '1m30s', ttl: '768h',
    maxTtl: '768h', passwordPolicy: '', length: 64, formatter: '', lastRotationTolerance: '5s', ...over,
  };
}
const withoutBindpass = (s: Spec) => Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'bindpass'));

test('the three kinds are registered with API-path identities', () => {
  expect(registeredKinds().resources).toEqual(expect.arrayContaining(['secrets.DirectoryConfig', 'secrets.DirectoryRole', 'secrets.DirectoryLibrarySet']));
  expect(directoryConfigHandler.naturalId(configSpec())).toBe('directory/config');
  expect(directoryConfigHandler.importId!('ad/config')).toBe('ad/config');
  expect(() => directoryConfigHandler.importId!('ad')).toThrow(/<mount>\/config/);
  expect(directoryLibrarySetHandler.importId!('directory/library/ops')).toBe('directory/library/ops');
  expect(directoryRoleHandler.naturalId({ mount: 'directory', name: 'app' })).toBe('directory/roles/app');
});

describe('DirectoryConfig', () => {
  test('create, no-op read without bindpass, update without re-sending it (survives rotate-root), delete', async () => {
    const s = configSpec();
    const w = await directoryConfigHandler.create(ctx, s);
    expect(w.id).toBe('directory/config');
    expect(configBodies()[0].bindpass).toBe('bind-1');
    expect((await directoryConfigHandler.read(ctx, w.id, s))?.fields).toEqual(withoutBindpass(s));
    await dir.rotateRoot('directory');
    sent = [];
    const s2 = configSpec({ ttl: '1h', userdn: 'OU=svc,DC=example,DC=com' });
    await directoryConfigHandler.update(ctx, w.id, s2, [{ path: 'ttl', sensitive: false, replace: false }, { path: 'userdn', sensitive: false, replace: false }], prior(w.id, s));
    expect(configBodies()[0]).not.toHaveProperty('bindpass');
    expect((await directoryConfigHandler.read(ctx, w.id, s2))?.fields).toEqual(withoutBindpass(s2));
    // The engine still binds with the password only it knows.
    await dir.writeRole('directory', 'r', { service_account_name: 'svc-a' });
    // A changed bindpass is sent.
    await call(served, 'POST', `${ADMIN}/${BINDDN}`, { body: { password: 'bind-2' } });
    sent = [];
    await directoryConfigHandler.update(ctx, w.id, configSpec({ bindpass: 'bind-2', ttl: '1h' }), [{ path: 'bindpass', sensitive: true, replace: false }], prior(w.id, s2));
    expect(configBodies()[0].bindpass).toBe('bind-2');
    await directoryConfigHandler.delete(ctx, w.id, prior(w.id, s2));
    expect(await directoryConfigHandler.read(ctx, w.id, s2)).toBeUndefined();
  });

  test('a password policy replaces length and formatter (and back)', async () => {
    const s = configSpec({ passwordPolicy: 'corp', length: 0 });
    const w = await directoryConfigHandler.create(ctx, s);
    expect(configBodies()[0]).not.toHaveProperty('length');
    expect((await directoryConfigHandler.read(ctx, w.id, s))?.fields).toEqual(withoutBindpass(s));
    const s2 = configSpec({ length: 20, formatter: 'x{{PASSWORD}}' });
    await directoryConfigHandler.update(ctx, w.id, s2, [{ path: 'passwordPolicy', sensitive: false, replace: false }], prior(w.id, s));
    expect((await directoryConfigHandler.read(ctx, w.id, s2))?.fields).toEqual(withoutBindpass(s2));
  });
});

describe('DirectoryRole and DirectoryLibrarySet', () => {
  beforeEach(async () => { await directoryConfigHandler.create(ctx, configSpec({ ttl: '2h' })); });

  test('role: create, no-op read (ttl compared only when the spec has one), update, delete', async () => {
    const s: Spec = { mount: 'directory', name: 'app', serviceAccountName: 'svc-a', ttl: '1h' };
    const w = await directoryRoleHandler.create(ctx, s);
    expect(w.id).toBe('directory/roles/app');
    const o = await directoryRoleHandler.read(ctx, w.id, s);
    expect(o?.fields).toEqual(s);
    expect(o?.outputs?.passwordLastSet).not.toBe('');
    const s2: Spec = { mount: 'directory', name: 'app', serviceAccountName: 'svc-b' };
    await directoryRoleHandler.update(ctx, w.id, s2, [], prior(w.id, s));
    // A spec without a ttl leaves the role's as the service keeps it (an update without one keeps the last):
    // read as it is, and never a change.
    const followed = (await directoryRoleHandler.read(ctx, w.id))!.fields;
    expect(followed).toEqual({ ...s2, ttl: '1h' });
    expect(diffSpec(resolveSpec(s2, 'app', () => undefined), followed, undefined, directoryRoleHandler)).toEqual([]);
    await expect(directoryRoleHandler.create(ctx, { mount: 'directory', name: 'x', serviceAccountName: 'ghost' })).rejects.toThrow(/ghost/);
    await directoryRoleHandler.delete(ctx, w.id, prior(w.id, s2));
    expect(await directoryRoleHandler.read(ctx, w.id, s2)).toBeUndefined();
  });

  test('library set: create, no-op read, update, delete', async () => {
    const s: Spec = { mount: 'directory', name: 'ops', serviceAccountNames: ['svc-a', 'svc-b'], ttl: '24h', maxTtl: '24h', disableCheckInEnforcement: false };
    const w = await directoryLibrarySetHandler.create(ctx, s);
    expect(w.id).toBe('directory/library/ops');
    expect((await directoryLibrarySetHandler.read(ctx, w.id, s))?.fields).toEqual(s);
    const s2 = { ...s, serviceAccountNames: ['svc-a', 'svc-b', 'svc-c'], ttl: '1h', disableCheckInEnforcement: true };
    await directoryLibrarySetHandler.update(ctx, w.id, s2, [], prior(w.id, s));
    expect((await directoryLibrarySetHandler.read(ctx, w.id, s2))?.fields).toEqual(s2);
    await directoryLibrarySetHandler.delete(ctx, w.id, prior(w.id, s2));
    expect(await directoryLibrarySetHandler.read(ctx, w.id, s2)).toBeUndefined();
  });
});
