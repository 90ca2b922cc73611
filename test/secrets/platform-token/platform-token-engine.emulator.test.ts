import * as net from 'net';
import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { PlatformEmulator } from '../../../lib/platform/emulator/platform-emulator';
import { call, startSecrets } from '../emulator-helpers';

const PLATFORM_ADMIN = 'platform-admin-token';
let s: ServedApi;
let p: ServedApi;

beforeEach(async () => {
  s = await startSecrets({ platform: 'platform', tfc2: 'platform' });
  p = await ServedApi.start(new PlatformEmulator({ adminToken: PLATFORM_ADMIN, rateLimit: 0 }), { port: 0 });
});
afterEach(async () => { await s.stop(); await p.stop(); });

async function platform(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${p.address}${path}`, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function configure(): Promise<void> {
  expect((await call(s, 'POST', '/v1/platform/config', { body: { address: p.address, token: PLATFORM_ADMIN } })).status).toBe(204);
  const org = await platform('POST', '/api/v2/organizations', PLATFORM_ADMIN, { data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } } });
  expect(org.status).toBe(201);
}

describe('config', () => {
  test('read hides the token and shows base_path; absent config is 404', async () => {
    expect((await call(s, 'GET', '/v1/platform/config')).status).toBe(404);
    await call(s, 'POST', '/v1/platform/config', { body: { token: 'secret-tok' } });
    const r = await call(s, 'GET', '/v1/platform/config');
    expect(r.body.data).toEqual({ address: 'https://app.terraform.io', base_path: '/api/v2/' });
    expect(JSON.stringify(r.body)).not.toContain('secret-tok');
    await call(s, 'POST', '/v1/platform/config', { body: { address: 'http://tfe.local:8080' } });
    expect((await call(s, 'GET', '/v1/platform/config')).body.data.address).toBe('http://tfe.local:8080');
  });
});

describe('roles', () => {
  test('create, read, list (LIST and ?list=true), delete (also absent), read of an absent role 404', async () => {
    expect((await call(s, 'GET', '/v1/platform/role/org')).status).toBe(404);
    expect((await call(s, 'GET', '/v1/platform/role?list=true')).status).toBe(404);
    expect((await call(s, 'POST', '/v1/platform/role/org', { body: { organization: 'acme' } })).status).toBe(204);
    expect((await call(s, 'POST', '/v1/platform/role/user', { body: { user_id: 'user-1', ttl: '1h', max_ttl: 7200 } })).status).toBe(204);
    expect((await call(s, 'GET', '/v1/platform/role/org')).body.data).toEqual({ name: 'org', organization: 'acme', ttl: 0, max_ttl: 0 });
    expect((await call(s, 'GET', '/v1/platform/role/user')).body.data).toEqual({ name: 'user', user_id: 'user-1', ttl: 3600, max_ttl: 7200 });
    expect((await call(s, 'GET', '/v1/platform/role?list=true')).body.data.keys).toEqual(['org', 'user']);
    expect((await call(s, 'GET', '/v1/tfc2/role?list=true')).status).toBe(404);
    expect((await call(s, 'DELETE', '/v1/platform/role/org')).status).toBe(204);
    expect((await call(s, 'DELETE', '/v1/platform/role/never')).status).toBe(204);
    expect((await call(s, 'GET', '/v1/platform/role/org')).status).toBe(404);
    expect((await call(s, 'PATCH', '/v1/platform/role/user', { body: {} })).status).toBe(405);
  });

  test('conflicting or missing fields are refused', async () => {
    const bad: [object, string][] = [
      [{ user_id: 'u', organization: 'acme' }, 'user_id cannot be provided with organization or team_id'],
      [{ user_id: 'u', team_id: 'team-1' }, 'user_id cannot be provided with organization or team_id'],
      [{}, 'one of organization, team_id or user_id is required'],
      [{ user_id: 'u', ttl: '2h', max_ttl: '1h' }, 'ttl cannot be greater than max_ttl'],
      [{ user_id: 'u', ttl: 'soon' }, 'error converting input for field "ttl": invalid duration "soon"'],
    ];
    for (const [body, msg] of bad) expect(await call(s, 'POST', '/v1/platform/role/r', { body })).toMatchObject({ status: 400, body: { errors: [msg] } });
  });
});

describe('credentials minted on the platform emulator', () => {
  test('organization role: the same stored token without a lease until rotated; it authenticates on the platform', async () => {
    await configure();
    await call(s, 'POST', '/v1/platform/role/org', { body: { organization: 'acme' } });
    const a = await call(s, 'GET', '/v1/platform/creds/org');
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ lease_id: '', lease_duration: 0, renewable: false, data: { organization: 'acme' } });
    expect(a.body.data.token_id).toMatch(/^at-/);
    const b = await call(s, 'GET', '/v1/platform/creds/org');
    expect(b.body.data.token).toBe(a.body.data.token);
    expect((await platform('GET', '/api/v2/organizations', a.body.data.token)).status).toBe(200);
    expect((await platform('GET', '/api/v2/organizations/acme', a.body.data.token)).status).toBe(200);

    expect((await call(s, 'POST', '/v1/platform/rotate-role/org')).status).toBe(204);
    const c = await call(s, 'GET', '/v1/platform/creds/org');
    expect(c.body.data.token).not.toBe(a.body.data.token);
    expect((await platform('GET', '/api/v2/organizations/acme', c.body.data.token)).status).toBe(200);
    // One active token per organization: the rotation revoked the earlier one on the platform.
    expect((await platform('GET', '/api/v2/organizations/acme', a.body.data.token)).status).toBe(401);
    // So does another role of the same organization generating its token.
    await call(s, 'POST', '/v1/platform/role/org2', { body: { organization: 'acme' } });
    const d = await call(s, 'GET', '/v1/platform/creds/org2');
    expect((await platform('GET', '/api/v2/organizations/acme', d.body.data.token)).status).toBe(200);
    expect((await platform('GET', '/api/v2/organizations/acme', c.body.data.token)).status).toBe(401);
  });

  test('team role with only team_id: a team token that reads its organization; a rotation revokes the earlier one', async () => {
    await configure();
    const team = await platform('POST', '/__admin/organizations/acme/teams', PLATFORM_ADMIN, { name: 'ops' });
    expect(team.status).toBe(201);
    await call(s, 'POST', '/v1/platform/role/team', { body: { team_id: team.body.id } });
    const a = await call(s, 'GET', '/v1/platform/creds/team');
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ team_id: team.body.id });
    expect((await call(s, 'GET', '/v1/platform/creds/team')).body.data.token).toBe(a.body.data.token);
    expect((await platform('GET', '/api/v2/organizations/acme', a.body.data.token)).status).toBe(200);
    expect((await call(s, 'POST', '/v1/platform/rotate-role/team')).status).toBe(204);
    const b = await call(s, 'GET', '/v1/platform/creds/team');
    expect((await platform('GET', '/api/v2/organizations/acme', b.body.data.token)).status).toBe(200);
    expect((await platform('GET', '/api/v2/organizations/acme', a.body.data.token)).status).toBe(401);
    // With its organization too; an unknown team is the platform's refusal (500).
    await call(s, 'POST', '/v1/platform/role/team2', { body: { organization: 'acme', team_id: team.body.id } });
    expect((await call(s, 'GET', '/v1/platform/creds/team2')).status).toBe(200);
    await call(s, 'POST', '/v1/platform/role/ghost', { body: { team_id: 'team-nope' } });
    expect((await call(s, 'GET', '/v1/platform/creds/ghost')).body.errors[0]).toMatch(/team "team-nope" not found/);
  });

  test('user role: a new leased token per request; rotate-role refused', async () => {
    await configure();
    const u = await platform('POST', '/__admin/users', PLATFORM_ADMIN, { username: 'dev', email: 'dev@acme.test' });
    await call(s, 'POST', '/v1/platform/role/dev', { body: { user_id: u.body.id, ttl: '2h' } });
    const a = await call(s, 'GET', '/v1/platform/creds/dev');
    const b = await call(s, 'GET', '/v1/platform/creds/dev');
    expect(a.body).toMatchObject({ lease_duration: 7200, renewable: true });
    expect(a.body.lease_id).toMatch(/^platform\/creds\/dev\/.+/);
    expect(b.body.data.token).not.toBe(a.body.data.token);
    expect(b.body.lease_id).not.toBe(a.body.lease_id);
    expect((await platform('GET', '/api/v2/organizations', a.body.data.token)).status).toBe(200);
    expect(await call(s, 'POST', '/v1/platform/rotate-role/dev')).toMatchObject({ status: 400, body: { errors: ['cannot rotate credentials for user roles'] } });
    await call(s, 'POST', '/v1/platform/role/dflt', { body: { user_id: u.body.id } });
    expect((await call(s, 'GET', '/v1/platform/creds/dflt')).body.lease_duration).toBe(768 * 3600);
  });

  test('errors: absent role 400, the platform refusing or unreachable 500', async () => {
    expect(await call(s, 'GET', '/v1/platform/creds/none')).toMatchObject({ status: 400, body: { errors: ['role "none" not found'] } });
    expect(await call(s, 'POST', '/v1/platform/rotate-role/none')).toMatchObject({ status: 400, body: { errors: ['role "none" not found'] } });
    await call(s, 'POST', '/v1/platform/role/org', { body: { organization: 'acme' } });
    expect((await call(s, 'GET', '/v1/platform/creds/org')).status).toBe(500);
    await call(s, 'POST', '/v1/platform/config', { body: { address: p.address, token: 'not-the-admin' } });
    const refused = await call(s, 'GET', '/v1/platform/creds/org');
    expect(refused.status).toBe(500);
    expect(refused.body.errors[0]).toMatch(/error creating the organization token: .*401/);
    expect(refused.body.errors[0]).not.toContain('not-the-admin');
    await call(s, 'POST', '/v1/platform/config', { body: { address: `http://127.0.0.1:${await closedPort()}`, token: PLATFORM_ADMIN } });
    const down = await call(s, 'GET', '/v1/platform/creds/org');
    expect(down.status).toBe(500);
    expect(down.body.errors[0]).toMatch(/ECONNREFUSED/);
    expect(down.body.errors[0]).not.toContain(PLATFORM_ADMIN);
  });
});

describe('persistence', () => {
  test('the stored organization token survives a restart of the served emulator (creds reads are saved)', async () => {
    const fs = await import('fs');
    const os = await import('os');
    const path = await import('path');
    const { SecretsEmulator } = await import('../../../lib/secrets/emulator/secrets-emulator');
    const { ROOT_TOKEN } = await import('../emulator-helpers');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-platform-'));
    const start = () => ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN, mounts: { platform: 'platform' } }), { port: 0, dataDir });
    const saved = s;
    let first: ServedApi | undefined;
    let second: ServedApi | undefined;
    try {
      s = first = await start();
      await configure();
      await call(s, 'POST', '/v1/platform/role/org', { body: { organization: 'acme' } });
      const token = (await call(s, 'GET', '/v1/platform/creds/org')).body.data.token;
      await first.stop();
      first = undefined;
      s = second = await start();
      expect((await call(s, 'GET', '/v1/platform/creds/org')).body.data.token).toBe(token);
    } finally {
      await first?.stop();
      await second?.stop();
      s = saved;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
