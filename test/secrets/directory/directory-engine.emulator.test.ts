import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { HttpClient } from '../../../lib/core/http/http-client';
import { DirectoryClient } from '../../../lib/secrets/directory/directory-client';
import { SecretsClient } from '../../../lib/secrets/client/secrets-client';
import { SecretsEmulator } from '../../../lib/secrets/emulator/secrets-emulator';
import { ManualClock } from '../../support/fake-clock';
import { advance, call, ROOT_TOKEN, startSecrets } from '../emulator-helpers';

let served: ServedApi;
let http: HttpClient;
let dir: DirectoryClient;
/** The emulator's time: moved by the tests, never waited for. */
let clock: ManualClock;

const BINDDN = 'CN=vault,OU=svc,DC=example,DC=com';
const ADMIN = '/__admin/directory/directory';

beforeEach(async () => {
  clock = new ManualClock();
  served = await startSecrets(undefined, clock);
  http = new HttpClient({ api: 'secrets', baseUrl: served.address, authHeaders: { 'x-secrets-token': ROOT_TOKEN }, retries: 0 });
  dir = new DirectoryClient(new SecretsClient(http));
});
afterEach(async () => { await http.close(); await served.stop(); });

const seed = (name: string, password?: string) => call(served, 'POST', `${ADMIN}/accounts/${encodeURIComponent(name)}`, { body: password ? { password } : {} });
const account = async (name: string) => (await call(served, 'GET', `${ADMIN}/accounts/${encodeURIComponent(name)}`)).body;

async function setup(config: Record<string, unknown> = {}, accounts = ['svc-a', 'svc-b']): Promise<void> {
  await seed(BINDDN, 'bind-pass');
  for (const a of accounts) await seed(a);
  expect((await call(served, 'POST', '/v1/directory/config', { body: { binddn: BINDDN, bindpass: 'bind-pass', ...config } })).status).toBe(204);
}

/** Resolves once the emulator's clock holds one more pending sleep than `before` (a request reached its wait). */
async function sleepStarted(before: number): Promise<void> {
  while (clock.waiting <= before) await new Promise((r) => setImmediate(r));
}

describe('admin interface and mount', () => {
  test('directory is mounted by default; accounts are seeded, read, listed and removed', async () => {
    expect((await call(served, 'GET', '/__admin/mounts')).body.mounts.directory).toEqual({ type: 'directory' });
    expect(await seed('svc-a', 'pw-1')).toMatchObject({ status: 204 });
    expect(await account('svc-a')).toMatchObject({ name: 'svc-a', password: 'pw-1' });
    expect(Object.keys((await call(served, 'GET', `${ADMIN}/accounts`)).body.accounts)).toEqual(['svc-a']);
    expect((await call(served, 'DELETE', `${ADMIN}/accounts/svc-a`)).status).toBe(204);
    expect((await call(served, 'GET', `${ADMIN}/accounts/svc-a`)).status).toBe(404);
    expect((await call(served, 'GET', '/__admin/directory/nomount/accounts')).status).toBe(404);
    expect((await call(served, 'POST', `${ADMIN}/settings`, { body: { rotation_delay_ms: -1 } })).status).toBe(400);
    expect((await call(served, 'POST', `${ADMIN}/accounts/x`, { token: 'other' })).status).toBe(403);
  });
});

describe('config', () => {
  test('write, read with defaults (bindpass never returned), update keeps absent fields, delete', async () => {
    await setup({ userdn: 'OU=svc,DC=example,DC=com' });
    const r = await call(served, 'GET', '/v1/directory/config');
    expect(r.body.data).toEqual({
      binddn: BINDDN, certificate: '', insecure_tls: false, length: 64, formatter: '', password_policy: '',
      max_ttl: 2764800, ttl: 2764800, starttls: false, tls_max_version: 'tls12', tls_min_version: 'tls12',
      upndomain: '', url: 'ldap://127.0.0.1', userdn: 'OU=svc,DC=example,DC=com', request_timeout: 90, last_rotation_tolerance: 5,
    });
    expect(JSON.stringify(r.body)).not.toContain('bind-pass');
    await dir.writeConfig('directory', { ttl: '1h', max_ttl: 7200, url: 'ldaps://a,ldaps://b' });
    expect(await dir.readConfig('directory')).toMatchObject({ ttl: 3600, max_ttl: 7200, url: 'ldaps://a,ldaps://b', binddn: BINDDN });
    await dir.deleteConfig('directory');
    expect(await dir.readConfig('directory')).toBeUndefined();
  });

  test('validation: required bind fields, password_policy exclusive, length minimum, formatter once, ttl order', async () => {
    const w = (body: unknown) => call(served, 'POST', '/v1/directory/config', { body });
    const base = { binddn: BINDDN, bindpass: 'x' };
    expect((await w({ bindpass: 'x' })).body.errors).toEqual(['binddn is required']);
    expect((await w({ binddn: BINDDN })).body.errors).toEqual(['bindpass is required']);
    expect((await w({ ...base, password_policy: 'p', length: 20 })).body.errors).toEqual(['cannot set password_policy and either length or formatter']);
    expect((await w({ ...base, password_policy: 'p', formatter: 'x{{PASSWORD}}' })).status).toBe(400);
    expect((await w({ ...base, length: 13 })).body.errors[0]).toMatch(/length 13, please boost length to 14/);
    expect((await w({ ...base, formatter: 'none' })).body.errors).toEqual(['formatter must contain "{{PASSWORD}}" exactly once']);
    expect((await w({ ...base, formatter: '{{PASSWORD}}{{PASSWORD}}' })).status).toBe(400);
    expect((await w({ ...base, length: 14, formatter: 'prefix-long-{{PASSWORD}}' })).body.errors[0]).toMatch(/sufficiently secure/);
    expect((await w({ ...base, ttl: 100, max_ttl: 50 })).body.errors).toEqual(['ttl cannot be greater than max_ttl']);
    expect((await w({ ...base, length: 14 })).status).toBe(204);
  });

  test('passwords: `?@09AZ` prefix with length, formatter without prefix, a password policy instead', async () => {
    await setup({ length: 20 });
    await dir.writeRole('directory', 'r', { service_account_name: 'svc-a' });
    const p1 = (await dir.credentials('directory', 'r')).current_password;
    expect(p1).toHaveLength(20);
    expect(p1.startsWith('?@09AZ')).toBe(true);
    await dir.writeConfig('directory', { length: 30, formatter: 'pre{{PASSWORD}}' });
    await dir.rotateRole('directory', 'r');
    const p2 = (await dir.credentials('directory', 'r')).current_password;
    expect(p2).toMatch(/^pre[A-Za-z0-9]{27}$/);
    await dir.writeConfig('directory', { password_policy: 'corp' });
    expect(await dir.readConfig('directory')).toMatchObject({ password_policy: 'corp', length: 0, formatter: '' });
    await dir.rotateRole('directory', 'r');
    const p3 = (await dir.credentials('directory', 'r')).current_password;
    expect(p3).toHaveLength(20);
    expect(p3.startsWith('?@09AZ')).toBe(false);
  });
});

describe('roles and creds', () => {
  test('role needs the config and an existing account; ttl defaults to the config\'s and is capped by max_ttl', async () => {
    expect((await call(served, 'POST', '/v1/directory/roles/r', { body: { service_account_name: 'svc-a' } })).body.errors)
      .toEqual(['the config is currently unset']);
    await setup({ ttl: 600, max_ttl: 3600 });
    expect((await call(served, 'POST', '/v1/directory/roles/r', { body: {} })).body.errors).toEqual(['"service_account_name" is required']);
    expect((await call(served, 'POST', '/v1/directory/roles/r', { body: { service_account_name: 'ghost' } })).status).toBe(400);
    expect((await call(served, 'POST', '/v1/directory/roles/r', { body: { service_account_name: 'svc-a', ttl: 7200 } })).body.errors[0])
      .toMatch(/over the max ttl of 3600/);
    expect((await call(served, 'POST', '/v1/directory/roles/r', { body: { service_account_name: 'svc-a' } })).status).toBe(204);
    const r = await call(served, 'GET', '/v1/directory/roles/r');
    expect(r.body.data).toMatchObject({ service_account_name: 'svc-a', ttl: 600 });
    expect(r.body.data.password_last_set).toBeDefined();
    expect(r.body.data.last_service_rotation).toBeUndefined();
    await dir.writeRole('directory', 'q', { service_account_name: 'svc-b', ttl: '2m' });
    expect((await call(served, 'GET', '/v1/directory/roles')).body.data.keys).toEqual(['q', 'r']);
    expect(await dir.listRoles('directory')).toEqual(['q', 'r']);
    await dir.deleteRole('directory', 'q');
    expect(await dir.readRole('directory', 'q')).toBeUndefined();
    expect((await call(served, 'GET', '/v1/directory/creds/q')).status).toBe(400);
  });

  test('creds rotate on first use, stay until ttl passes, then rotate again keeping the last password', async () => {
    await setup();
    await dir.writeRole('directory', 'r', { service_account_name: 'svc-a', ttl: 1 });
    const before = (await account('svc-a')).password;
    const c1 = await dir.credentials('directory', 'r');
    expect(c1.username).toBe('svc-a');
    expect(c1.current_password).not.toBe(before);
    expect((await account('svc-a')).password).toBe(c1.current_password);
    expect(c1.last_password).toBeUndefined();
    expect((await dir.readRole('directory', 'r'))?.last_service_rotation).toBeDefined();
    clock.advance(999);
    expect((await dir.credentials('directory', 'r')).current_password).toBe(c1.current_password);
    clock.advance(1);
    const c2 = await dir.credentials('directory', 'r');
    expect(c2.current_password).not.toBe(c1.current_password);
    expect(c2.last_password).toBe(c1.current_password);
  });

  test('a password changed outside the service (beyond last_rotation_tolerance) is rotated again', async () => {
    await setup({ last_rotation_tolerance: 1 });
    await dir.writeRole('directory', 'r', { service_account_name: 'svc-a' });
    const c1 = await dir.credentials('directory', 'r');
    expect((await dir.credentials('directory', 'r')).current_password).toBe(c1.current_password);
    // A change within the tolerance of the engine's own rotation is taken for that rotation.
    clock.advance(1000);
    await seed('svc-a', 'changed-within-tolerance');
    expect((await dir.credentials('directory', 'r')).current_password).toBe(c1.current_password);
    clock.advance(1);
    await seed('svc-a', 'changed-by-someone');
    const c2 = await dir.credentials('directory', 'r');
    expect(c2.current_password).not.toBe('changed-by-someone');
    expect((await account('svc-a')).password).toBe(c2.current_password);
  });

  test('a wrong bind password fails every directory operation with 500', async () => {
    await setup();
    await dir.writeConfig('directory', { bindpass: 'wrong' });
    const r = await call(served, 'POST', '/v1/directory/roles/r', { body: { service_account_name: 'svc-a' } });
    expect(r).toMatchObject({ status: 500, body: { errors: ['failed to bind to the directory: LDAP Result Code 49 "Invalid Credentials"'] } });
    expect((await call(served, 'POST', '/v1/directory/rotate-root')).status).toBe(500);
  });
});

describe('rotation', () => {
  test('rotate-root sets a bind password only the service knows and keeps working', async () => {
    await setup();
    expect(await call(served, 'POST', '/v1/directory/rotate-root')).toMatchObject({ status: 204, body: undefined });
    const bind = await account(BINDDN);
    expect(bind.password).not.toBe('bind-pass');
    expect(bind.password.startsWith('?@09AZ')).toBe(true);
    expect(JSON.stringify((await call(served, 'GET', '/v1/directory/config')).body)).not.toContain(bind.password);
    expect((await call(served, 'GET', '/v1/directory/rotate-root')).status).toBe(204);
    await dir.writeRole('directory', 'r', { service_account_name: 'svc-a' });
    expect((await dir.rotateRoot('directory'))).toEqual({ rotated: true, warnings: [] });
  });

  test('rotate-role changes the password; a rotation already in progress answers 200 with a warning', async () => {
    await setup();
    await dir.writeRole('directory', 'r', { service_account_name: 'svc-a' });
    const first = (await dir.credentials('directory', 'r')).current_password;
    expect(await call(served, 'POST', '/v1/directory/rotate-role/r')).toMatchObject({ status: 204 });
    expect((await account('svc-a')).password).not.toBe(first);
    expect((await call(served, 'POST', '/v1/directory/rotate-role/none')).status).toBe(400);

    await call(served, 'POST', `${ADMIN}/settings`, { body: { rotation_delay_ms: 400 } });
    const beforeRole = (await account('svc-a')).password;
    let waits = clock.waiting;
    const a = call(served, 'POST', '/v1/directory/rotate-role/r');
    await sleepStarted(waits);
    const b = await call(served, 'POST', '/v1/directory/rotate-role/r');
    expect(b.status).toBe(200);
    expect(b.body.warnings[0]).toMatch(/already in progress/);
    expect((await account('svc-a')).password).toBe(beforeRole);
    clock.advance(399);
    expect((await call(served, 'POST', '/v1/directory/rotate-role/r')).status).toBe(200);
    clock.advance(1);
    expect((await a).status).toBe(204);
    expect((await account('svc-a')).password).not.toBe(beforeRole);
    waits = clock.waiting;
    const c = dir.rotateRoot('directory');
    await sleepStarted(waits);
    const d = await dir.rotateRoot('directory');
    expect(d).toEqual({ rotated: false, warnings: [expect.stringMatching(/root credential is already in progress/)] });
    clock.advance(400);
    expect((await c).rotated).toBe(true);
  });
});

describe('library', () => {
  test('set write, read with 24h defaults, list, one set per account, accounts must exist, delete', async () => {
    await setup({}, ['svc-a', 'svc-b', 'svc-c']);
    expect((await call(served, 'POST', '/v1/directory/library/s1', { body: { name: 's1', service_account_names: 'svc-a,svc-b' } })).status).toBe(204);
    expect((await call(served, 'GET', '/v1/directory/library/s1')).body.data).toEqual({
      service_account_names: ['svc-a', 'svc-b'], ttl: 86400, max_ttl: 86400, disable_check_in_enforcement: false,
    });
    expect((await call(served, 'POST', '/v1/directory/library/s2', { body: { service_account_names: ['svc-b'] } })).body.errors)
      .toEqual(['"svc-b" is already managed by set "s1"']);
    expect((await call(served, 'POST', '/v1/directory/library/s2', { body: { service_account_names: ['ghost'] } })).status).toBe(400);
    expect((await call(served, 'POST', '/v1/directory/library/s2', { body: {} })).body.errors).toEqual(['"service_account_names" must be provided']);
    expect((await call(served, 'POST', '/v1/directory/library/s2', { body: { service_account_names: ['svc-c'], ttl: '2h', max_ttl: '1h' } })).status).toBe(400);
    await dir.writeLibrarySet('directory', 's2', { service_account_names: ['svc-c'], ttl: '1h', max_ttl: 0 });
    expect(await dir.readLibrarySet('directory', 's2')).toMatchObject({ ttl: 3600, max_ttl: 0 });
    expect(await dir.listLibrarySets('directory')).toEqual(['s1', 's2']);
    await dir.deleteLibrarySet('directory', 's2');
    expect(await dir.readLibrarySet('directory', 's2')).toBeUndefined();
  });

  test('check-out until none is free (400), ttl capped, status, check-in rotates, already-in not listed', async () => {
    await setup();
    await dir.writeLibrarySet('directory', 'lib', { service_account_names: ['svc-a', 'svc-b'], ttl: '1h' });
    const r = await call(served, 'POST', '/v1/directory/library/lib/check-out', { body: { ttl: '10h' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ lease_duration: 3600, renewable: true, data: { service_account_name: 'svc-a' } });
    expect(r.body.lease_id).toMatch(/^directory\/library\/lib\/check-out\/.+/);
    expect((await account('svc-a')).password).toBe(r.body.data.password);
    const o2 = await dir.checkOut('directory', 'lib', 60);
    expect(o2).toMatchObject({ service_account_name: 'svc-b', lease_duration: 60 });
    expect(await call(served, 'POST', '/v1/directory/library/lib/check-out', { body: {} }))
      .toMatchObject({ status: 400, body: { errors: ['No service accounts available for check-out.'] } });
    const st = await dir.status('directory', 'lib');
    expect(st['svc-a']).toMatchObject({ available: false, borrower_entity_id: '' });
    expect(st['svc-a'].borrower_client_token).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(st)).not.toContain(ROOT_TOKEN);
    expect(await dir.checkIn('directory', 'lib', ['svc-a'])).toEqual(['svc-a']);
    expect((await account('svc-a')).password).not.toBe(r.body.data.password);
    expect(await dir.checkIn('directory', 'lib', ['svc-a'])).toEqual([]);
    expect((await dir.status('directory', 'lib'))['svc-a']).toEqual({ available: true });
    // Omitted names: the only account the caller has out.
    expect(await dir.checkIn('directory', 'lib')).toEqual(['svc-b']);
    await dir.checkOut('directory', 'lib');
    await dir.checkOut('directory', 'lib');
    expect((await call(served, 'POST', '/v1/directory/library/lib/check-in', { body: {} })).status).toBe(400);
    expect((await call(served, 'POST', '/v1/directory/library/lib', { body: { service_account_names: ['svc-a'] } })).status).toBe(400);
    expect((await call(served, 'DELETE', '/v1/directory/library/lib')).status).toBe(400);
    expect((await call(served, 'POST', '/v1/directory/library/lib/check-in', { body: { service_account_names: ['svc-x'] } })).status).toBe(400);
    expect((await call(served, 'POST', '/v1/directory/library/none/check-out', { body: {} })).status).toBe(400);
  });

  test('check-in by another caller is refused unless enforcement is off; manage check-in forces it', async () => {
    await setup();
    expect((await call(served, 'POST', '/__admin/tokens', { body: { token: 'second-caller' } })).status).toBe(204);
    expect((await call(served, 'GET', '/__admin/mounts', { token: 'second-caller' })).status).toBe(403);
    await dir.writeLibrarySet('directory', 'lib', { service_account_names: ['svc-a', 'svc-b'] });
    await dir.checkOut('directory', 'lib');
    const other = (body: unknown, path = '/v1/directory/library/lib/check-in') => call(served, 'POST', path, { body, token: 'second-caller' });
    const refused = await other({ service_account_names: ['svc-a'] });
    expect(refused).toMatchObject({ status: 400, body: { errors: ['"svc-a" can\'t be checked in because it wasn\'t checked out by the caller'] } });
    expect((await other({})).body.data.check_ins).toEqual([]);
    expect((await other({ service_account_names: 'svc-a' }, '/v1/directory/library/manage/lib/check-in')).body.data.check_ins).toEqual(['svc-a']);
    await dir.checkOut('directory', 'lib');
    await dir.writeLibrarySet('directory', 'lib', { disable_check_in_enforcement: true });
    expect((await other({ service_account_names: ['svc-a'] })).body.data.check_ins).toEqual(['svc-a']);
    expect(await dir.manageCheckIn('directory', 'lib', ['svc-a'])).toEqual([]);
  });

  test('an account is checked in automatically when its lease expires', async () => {
    await setup();
    await dir.writeLibrarySet('directory', 'lib', { service_account_names: ['svc-a'], ttl: 1 });
    const out = await dir.checkOut('directory', 'lib');
    expect(out.lease_duration).toBe(1);
    await advance(served, clock, 999);
    expect((await dir.status('directory', 'lib'))['svc-a']).toMatchObject({ available: false });
    expect((await account('svc-a')).password).toBe(out.password);
    await advance(served, clock, 1);
    expect((await dir.status('directory', 'lib'))['svc-a']).toEqual({ available: true });
    expect((await account('svc-a')).password).not.toBe(out.password);
    expect((await dir.checkOut('directory', 'lib')).service_account_name).toBe('svc-a');
  });
});

test('LIST, 405 and 404 through the handler; snapshot seals passwords', async () => {
  const emu = new SecretsEmulator({ rootToken: ROOT_TOKEN });
  const req = (method: string, path: string, body?: unknown) => emu.handle({
    method, path, rawPath: path, query: new URLSearchParams(), headers: { 'x-secrets-token': ROOT_TOKEN },
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
  });
  expect(await req('LIST', '/v1/directory/roles')).toMatchObject({ status: 404, body: { errors: [] } });
  expect(await req('LIST', '/v1/directory/library')).toMatchObject({ status: 404 });
  await req('POST', `${ADMIN}/accounts/${BINDDN}`, { password: 'bind-pass' });
  await req('POST', `${ADMIN}/accounts/svc-a`, {});
  await req('POST', '/v1/directory/config', { binddn: BINDDN, bindpass: 'bind-pass' });
  await req('POST', '/v1/directory/library/lib', { service_account_names: ['svc-a'] });
  expect(await req('LIST', '/v1/directory/library')).toMatchObject({ status: 200, body: { data: { keys: ['lib'] } } });
  expect(await req('PATCH', '/v1/directory/config')).toMatchObject({ status: 405 });
  expect(await req('GET', '/v1/directory/config/x')).toMatchObject({ status: 404 });
  expect(await req('GET', '/v1/directory/nothing')).toMatchObject({ status: 404 });
  expect(JSON.stringify(emu.snapshot())).not.toContain('bind-pass');
  const copy = new SecretsEmulator({ rootToken: ROOT_TOKEN });
  copy.restore(emu.snapshot());
  const again = await copy.handle({
    method: 'GET', path: '/v1/directory/library/lib', rawPath: '', query: new URLSearchParams(), headers: { 'x-secrets-token': ROOT_TOKEN }, body: Buffer.alloc(0),
  });
  expect(again.status).toBe(200);
  await emu.close();
  await copy.close();
});

test('a rotation made by a GET of creds is persisted in the data directory', async () => {
  const fs = await import('fs');
  const os = await import('os');
  const path = await import('path');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-dir-'));
  try {
    const first = await ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN }), { port: 0, dataDir });
    await call(first, 'POST', `${ADMIN}/accounts/${BINDDN}`, { body: { password: 'bind-pass' } });
    await call(first, 'POST', `${ADMIN}/accounts/svc-a`, { body: {} });
    await call(first, 'POST', '/v1/directory/config', { body: { binddn: BINDDN, bindpass: 'bind-pass' } });
    await call(first, 'POST', '/v1/directory/roles/r', { body: { service_account_name: 'svc-a' } });
    const c1 = (await call(first, 'GET', '/v1/directory/creds/r')).body.data.current_password;
    await first.stop();
    const second = await ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN }), { port: 0, dataDir });
    try {
      expect((await call(second, 'GET', `${ADMIN}/accounts/svc-a`)).body.password).toBe(c1);
      expect((await call(second, 'GET', '/v1/directory/creds/r')).body.data.current_password).toBe(c1);
    } finally {
      await second.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
