import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from 'pg';
import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { ApiError } from '../../../lib/core/http/api-error';
import { HttpClient } from '../../../lib/core/http/http-client';
import { DatabaseClient } from '../../../lib/secrets/database/database-client';
import { SecretsClient } from '../../../lib/secrets/client/secrets-client';
import { SecretsEmulator } from '../../../lib/secrets/emulator/secrets-emulator';
import { startPostgres, TestPostgres } from '../../support/postgres';
import { ManualClock } from '../../support/fake-clock';
import { advance, call, ROOT_TOKEN, startSecrets } from '../emulator-helpers';


let pg: TestPostgres;
let served: ServedApi;
let http: HttpClient;
let db: DatabaseClient;
/**
 * The emulator's time, moved by the tests and never waited for. It starts at the real time: the
 * `VALID UNTIL` of generated users is checked by PostgreSQL against its own clock.
 */
let clock: ManualClock;
let rootUser: string;
let rootPassword: string;
let hostPart: string;

beforeAll(async () => {
  pg = await startPostgres();
  const u = new URL(pg.url);
  rootUser = u.username;
  rootPassword = decodeURIComponent(u.password);
  hostPart = `${u.host}${u.pathname}`;
});
afterAll(async () => { await pg.stop(); });

beforeEach(async () => {
  clock = new ManualClock(Date.now());
  served = await startSecrets(undefined, clock);
  http = new HttpClient({ api: 'secrets', baseUrl: served.address, authHeaders: { 'x-secrets-token': ROOT_TOKEN }, retries: 0 });
  db = new DatabaseClient(new SecretsClient(http));
});
afterEach(async () => { await http.close(); await served.stop(); });

const templateUrl = () => `postgresql://{{username}}:{{password}}@${hostPart}`;

/** Runs SQL as the test server's superuser (the password the test started it with). */
async function asSuperuser<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: pg.url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end();
  }
}

async function canLogin(user: string, password: string): Promise<boolean> {
  const c = new Client({ connectionString: `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${hostPart}` });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function connect(name = 'pg', extra: Record<string, unknown> = {}) {
  return call(served, 'POST', `/v1/database/config/${name}`, {
    body: {
      plugin_name: 'postgresql-database-plugin', connection_url: templateUrl(), username: rootUser, password: rootPassword,
      allowed_roles: ['*'], ...extra,
    },
  });
}

const CREATE = [`CREATE ROLE "{{name}}" WITH LOGIN PASSWORD '{{password}}' VALID UNTIL '{{expiration}}';`];

const roleExists = async (name: string) => (await asSuperuser('SELECT 1 FROM pg_roles WHERE rolname = $1', [name])).length > 0;

describe('connections', () => {
  test('database is mounted by default; write verifies, read never returns the password', async () => {
    expect((await call(served, 'GET', '/__admin/mounts')).body.mounts.database).toEqual({ type: 'database' });
    expect(await connect('pg', { allowed_roles: 'app,other', password_policy: 'p', root_rotation_statements: ['ALTER ROLE x'] }))
      .toMatchObject({ status: 204 });
    const r = await call(served, 'GET', '/v1/database/config/pg');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      allowed_roles: ['app', 'other'], connection_details: { connection_url: templateUrl(), username: rootUser },
      password_policy: 'p', plugin_name: 'postgresql-database-plugin', plugin_version: '',
      root_credentials_rotate_statements: ['ALTER ROLE x'],
    });
    expect(JSON.stringify(r.body)).not.toContain(rootPassword);
    expect(await db.readConnection('database', 'pg')).toMatchObject({ plugin_name: 'postgresql-database-plugin' });
  });

  test('verify_connection refuses bad credentials with 400 and the error; false stores without connecting', async () => {
    const bad = await connect('pg', { password: 'wrong' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^error creating database object: error verifying connection: .*password authentication failed/);
    expect(bad.body.errors[0]).not.toContain('wrong');
    expect((await call(served, 'GET', '/v1/database/config/pg')).status).toBe(404);
    expect(await connect('pg', { password: 'wrong', verify_connection: false })).toMatchObject({ status: 204 });
    // As OpenBao 2.6: the read carries no verify_connection.
    expect((await call(served, 'GET', '/v1/database/config/pg')).body.data).not.toHaveProperty('verify_connection');
  });

  test('plugin name required and only the PostgreSQL plugin known; connection_url required', async () => {
    expect(await call(served, 'POST', '/v1/database/config/x', { body: { connection_url: 'x' } }))
      .toMatchObject({ status: 400, body: { errors: ['plugin_name must be specified'] } });
    const r = await call(served, 'POST', '/v1/database/config/x', { body: { plugin_name: 'mysql-database-plugin' } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/unknown plugin "mysql-database-plugin"/);
    expect((await call(served, 'POST', '/v1/database/config/x', { body: { plugin_name: 'postgresql-database-plugin' } })).body.errors)
      .toEqual(['error creating database object: connection_url cannot be empty']);
  });

  test('update keeps absent fields; list; delete; 404 and 405', async () => {
    await connect('a');
    await connect('b');
    expect(await call(served, 'POST', '/v1/database/config/a', { body: { allowed_roles: ['r1'] } })).toMatchObject({ status: 204 });
    expect((await db.readConnection('database', 'a'))).toMatchObject({ allowed_roles: ['r1'], connection_details: { username: rootUser } });
    expect((await call(served, 'GET', '/v1/database/config?list=true')).body.data.keys).toEqual(['a', 'b']);
    expect(await db.listConnections('database')).toEqual(['a', 'b']);
    await db.deleteConnection('database', 'a');
    await db.deleteConnection('database', 'b');
    expect(await call(served, 'GET', '/v1/database/config?list=true')).toEqual(expect.objectContaining({ status: 404, body: { errors: [] } }));
    expect(await db.listConnections('database')).toEqual([]);
    expect(await db.readConnection('database', 'a')).toBeUndefined();
    expect((await call(served, 'PATCH', '/v1/database/config/a', { body: {} })).status).toBe(405);
    expect((await call(served, 'GET', '/v1/database/nothing/a')).status).toBe(404);
    expect((await call(served, 'GET', '/v1/database/config/a', { token: 'wrong' })).status).toBe(403);
  });

  test('reset reconnects from stored configuration; unknown connection 400', async () => {
    await connect();
    expect((await call(served, 'POST', '/v1/database/reset/pg')).status).toBe(204);
    await db.resetConnection('database', 'pg');
    expect((await call(served, 'POST', '/v1/database/reset/none')).status).toBe(400);
  });

  test('rotate-root changes the root password to one only the service knows; the connection keeps working', async () => {
    await asSuperuser(`CREATE ROLE rootish WITH LOGIN CREATEROLE PASSWORD 'first-pass'`);
    try {
      const r = await call(served, 'POST', '/v1/database/config/rot', {
        body: { plugin_name: 'postgresql-database-plugin', connection_url: templateUrl(), username: 'rootish', password: 'first-pass', allowed_roles: '*' },
      });
      expect(r.status).toBe(204);
      expect(await call(served, 'POST', '/v1/database/rotate-root/rot')).toMatchObject({ status: 204, body: undefined });
      expect(await canLogin('rootish', 'first-pass')).toBe(false);
      expect(JSON.stringify((await call(served, 'GET', '/v1/database/config/rot')).body)).not.toMatch(/password"/);
      // The engine still connects with the password only it knows.
      expect((await call(served, 'POST', '/v1/database/reset/rot')).status).toBe(204);
      await db.writeRole('database', 'tmp', { db_name: 'rot', creation_statements: CREATE });
      const creds = await db.generateCredentials('database', 'tmp');
      expect(await canLogin(creds.username, creds.password)).toBe(true);
      expect((await call(served, 'POST', '/v1/database/rotate-root/none')).status).toBe(400);
    } finally {
      await asSuperuser(`DROP OWNED BY rootish; DROP ROLE IF EXISTS rootish`).catch(() => undefined);
    }
  });
});

describe('dynamic roles', () => {
  test('role write, read with defaults, update keeps fields, list, delete', async () => {
    expect(await call(served, 'POST', '/v1/database/roles/app', { body: { db_name: 'pg', creation_statements: CREATE, default_ttl: '1h', max_ttl: 7200 } }))
      .toMatchObject({ status: 204 });
    expect((await call(served, 'GET', '/v1/database/roles/app')).body.data).toEqual({
      db_name: 'pg', creation_statements: CREATE, revocation_statements: [], rollback_statements: [], renew_statements: [],
      credential_type: 'password', default_ttl: 3600, max_ttl: 7200,
    });
    await db.writeRole('database', 'app', { revocation_statements: ['DROP ROLE "{{name}}"'] });
    expect(await db.readRole('database', 'app')).toMatchObject({ default_ttl: 3600, revocation_statements: ['DROP ROLE "{{name}}"'] });
    await db.writeRole('database', 'b', { db_name: 'pg', creation_statements: CREATE });
    expect(await db.listRoles('database')).toEqual(['app', 'b']);
    expect((await call(served, 'GET', '/v1/database/roles?list=true')).body.data.keys).toEqual(['app', 'b']);
    await db.deleteRole('database', 'b');
    expect(await db.readRole('database', 'b')).toBeUndefined();
  });

  test('role validation: db_name, creation statements, ttl order, credential type', async () => {
    const w = (body: unknown) => call(served, 'POST', '/v1/database/roles/x', { body });
    expect((await w({ creation_statements: CREATE })).body.errors).toEqual(['empty database name attribute']);
    // As OpenBao 2.6 (the spec's "required" is the construct's check): accepted at write.
    expect((await w({ db_name: 'pg' })).status).toBe(204);
    expect((await w({ db_name: 'pg', creation_statements: CREATE, default_ttl: 100, max_ttl: 50 })).status).toBe(204);
    expect((await call(served, 'GET', '/v1/database/roles/x')).body.data).toMatchObject({ default_ttl: 100, max_ttl: 50 });
    expect((await w({ db_name: 'pg', creation_statements: CREATE, credential_type: 'nope' })).status).toBe(400);
    expect((await w({ db_name: 'pg', creation_statements: CREATE, default_ttl: 'soon' })).status).toBe(400);
  });

  test('generated credentials log in to PostgreSQL and stop working once the lease expires', async () => {
    await connect();
    await db.writeRole('database', 'app', { db_name: 'pg', creation_statements: CREATE, default_ttl: 3600, max_ttl: 7200 });
    const r = await call(served, 'GET', '/v1/database/creds/app');
    expect(r.status).toBe(200);
    expect(r.body.lease_id).toMatch(/^database\/creds\/app\/[A-Za-z0-9]+$/);
    expect(r.body).toMatchObject({ lease_duration: 3600, renewable: true });
    const { username, password } = r.body.data;
    expect(username).toMatch(/^v-root-app-[A-Za-z0-9]{20}-\d+$/);
    expect(password).toHaveLength(20);
    for (const re of [/[A-Z]/, /[a-z]/, /\d/, /-/]) expect(password).toMatch(re);
    expect(await canLogin(username, password)).toBe(true);
    await advance(served, clock, 3600_000 - 1);
    expect(await canLogin(username, password)).toBe(true);
    // The default revocation statements drop the user when the lease ends.
    await advance(served, clock, 1);
    expect(await roleExists(username)).toBe(false);
    expect(await canLogin(username, password)).toBe(false);
  });

  test('the role\'s own revocation statements run at expiry; client reports the lease', async () => {
    await connect();
    await db.writeRole('database', 'app', {
      db_name: 'pg', creation_statements: CREATE, default_ttl: 60, revocation_statements: ['ALTER ROLE "{{name}}" NOLOGIN;'],
    });
    const c = await db.generateCredentials('database', 'app');
    expect(c).toMatchObject({ lease_duration: 60, renewable: true });
    expect(c.lease_id.startsWith('database/creds/app/')).toBe(true);
    const canLoginFlag = async () => (await asSuperuser<{ rolcanlogin: boolean }>('SELECT rolcanlogin FROM pg_roles WHERE rolname = $1', [c.username]))[0]?.rolcanlogin;
    expect(await canLoginFlag()).toBe(true);
    await advance(served, clock, 60_000);
    expect(await canLoginFlag()).toBe(false);
    expect(await canLogin(c.username, c.password)).toBe(false);
    await asSuperuser(`DROP ROLE "${c.username}"`);
  });

  test('allowed_roles is checked when credentials are requested', async () => {
    await connect('pg', { allowed_roles: ['other'] });
    await db.writeRole('database', 'app', { db_name: 'pg', creation_statements: CREATE });
    expect(await call(served, 'GET', '/v1/database/creds/app')).toMatchObject({ status: 500, body: { errors: ['1 error occurred:\n\t* "app" is not an allowed role\n\n'] } });
    await call(served, 'POST', '/v1/database/config/pg', { body: { allowed_roles: ['app'] } });
    const ok = await call(served, 'GET', '/v1/database/creds/app');
    expect(ok.status).toBe(200);
    expect(ok.body.lease_duration).toBe(768 * 3600);
    expect((await call(served, 'GET', '/v1/database/creds/nope')).body).toEqual({ errors: ['unknown role: nope'] });
    await asSuperuser(`DROP ROLE "${ok.body.data.username}"`);
  });

  test('as OpenBao: a static role its connection does not allow is refused when written, nothing stored', async () => {
    await connect('pg', { allowed_roles: ['app'] });
    expect(await call(served, 'POST', '/v1/database/static-roles/report', { body: { db_name: 'pg', username: rootUser, rotation_period: '24h' } }))
      .toMatchObject({ status: 500, body: { errors: ['1 error occurred:\n\t* "report" is not an allowed role\n\n'] } });
    expect((await call(served, 'GET', '/v1/database/static-roles/report')).status).toBe(404);
  });

  test("as OpenBao: generated usernames carry the calling token's display name", async () => {
    await connect('pg', { allowed_roles: ['*'] });
    await db.writeRole('database', 'app', { db_name: 'pg', creation_statements: CREATE });
    const child = (await call(served, 'POST', '/v1/auth/token/create', { body: { display_name: 'CI bot' } })).body.auth.client_token;
    const asChild = await call(served, 'GET', '/v1/database/creds/app', { token: child });
    const asRoot = await call(served, 'GET', '/v1/database/creds/app');
    expect(asChild.body.data.username).toMatch(/^v-token-CI-app-[A-Za-z0-9]{20}-\d+$/);
    expect(asRoot.body.data.username).toMatch(/^v-root-app-/);
    await asSuperuser(`DROP ROLE "${asChild.body.data.username}"; DROP ROLE "${asRoot.body.data.username}"`);
  });

  test('a failing creation statement answers 500 and runs the rollback statements', async () => {
    await connect();
    await asSuperuser('CREATE TABLE IF NOT EXISTS rollbacks (n text)');
    await db.writeRole('database', 'bad', {
      db_name: 'pg', creation_statements: ['SELECT no_such_function()'], rollback_statements: [`INSERT INTO rollbacks VALUES ('{{name}}')`],
    });
    const r = await call(served, 'GET', '/v1/database/creds/bad');
    expect(r.status).toBe(500);
    expect(r.body.errors[0]).toMatch(/no_such_function/);
    expect((await asSuperuser<{ n: string }>('SELECT n FROM rollbacks'))[0].n).toMatch(/^v-root-bad-/);
  });
});

test('an engine mounted at another path names its leases after that mount; client errors keep status and messages', async () => {
  expect((await call(served, 'POST', '/__admin/mounts/db2', { body: { type: 'database' } })).status).toBe(204);
  await db.writeConnection('db2', 'pg', {
    plugin_name: 'postgresql-database-plugin', connection_url: templateUrl(), username: rootUser, password: rootPassword, allowed_roles: ['app'],
  });
  await db.writeRole('db2', 'app', { db_name: 'pg', creation_statements: CREATE, default_ttl: '10m' });
  await db.writeRole('db2', 'denied', { db_name: 'pg', creation_statements: CREATE });
  const c = await db.generateCredentials('db2', 'app');
  expect(c.lease_id.startsWith('db2/creds/app/')).toBe(true);
  expect(c.lease_duration).toBe(600);
  expect(await db.readConnection('database', 'pg')).toBeUndefined();
  const err = await db.generateCredentials('db2', 'denied').catch((e) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ status: 500, apiMessages: ['"denied" is not an allowed role'] });
  await asSuperuser(`DROP ROLE "${c.username}"`);
});

describe('static roles', () => {
  beforeEach(async () => {
    await asSuperuser(`DROP ROLE IF EXISTS staticuser; CREATE ROLE staticuser WITH LOGIN PASSWORD 'initial-pass'`);
  });

  test('rotated at creation; static-creds without lease; rotate-role changes the password and resets the ttl', async () => {
    await connect();
    expect(await call(served, 'POST', '/v1/database/static-roles/st', { body: { db_name: 'pg', username: 'staticuser', rotation_period: '1h' } }))
      .toMatchObject({ status: 204 });
    expect(await canLogin('staticuser', 'initial-pass')).toBe(false);
    const c1 = await call(served, 'GET', '/v1/database/static-creds/st');
    expect(c1.body.lease_id).toBe('');
    expect(c1.body.data).toMatchObject({ username: 'staticuser', rotation_period: 3600 });
    expect(c1.body.data.ttl).toBe(3600);
    expect(c1.body.data.last_service_rotation).toBe(new Date(clock.now()).toISOString());
    expect(await canLogin('staticuser', c1.body.data.password)).toBe(true);
    expect((await call(served, 'GET', '/v1/database/static-roles/st')).body.data).toMatchObject({
      credential_type: 'password', db_name: 'pg', username: 'staticuser', rotation_statements: [], rotation_period: 3600,
    });
    clock.advance(600_000);
    expect((await db.staticCredentials('database', 'st')).ttl).toBe(3000);
    expect(await call(served, 'POST', '/v1/database/rotate-role/st')).toMatchObject({ status: 204 });
    const c2 = await db.staticCredentials('database', 'st');
    expect(c2.password).not.toBe(c1.body.data.password);
    expect(await canLogin('staticuser', c1.body.data.password)).toBe(false);
    expect(await canLogin('staticuser', c2.password)).toBe(true);
    expect(c2.ttl).toBe(3600);
    expect(await db.listStaticRoles('database')).toEqual(['st']);
    await db.deleteStaticRole('database', 'st');
    expect(await db.readStaticRole('database', 'st')).toBeUndefined();
    expect(await canLogin('staticuser', c2.password)).toBe(true); // the user stays
    expect((await call(served, 'POST', '/v1/database/rotate-role/st')).status).toBe(400);
    expect((await call(served, 'GET', '/v1/database/static-creds/st')).status).toBe(400);
  });

  test('rotates every rotation_period', async () => {
    await connect();
    await db.writeStaticRole('database', 'st', { db_name: 'pg', username: 'staticuser', rotation_period: 5 });
    const first = await db.staticCredentials('database', 'st');
    await advance(served, clock, 4999);
    expect((await db.staticCredentials('database', 'st')).password).toBe(first.password);
    await advance(served, clock, 1);
    const next = await db.staticCredentials('database', 'st');
    expect(next.password).not.toBe(first.password);
    expect(await canLogin('staticuser', next.password)).toBe(true);
    expect(await canLogin('staticuser', first.password)).toBe(false);
    expect(Date.parse(next.last_service_rotation) - Date.parse(first.last_service_rotation)).toBe(5000);
    await advance(served, clock, 5000);
    expect((await db.staticCredentials('database', 'st')).password).not.toBe(next.password);
  });

  test('validation: username, rotation_period minimum 5s, username immutable, connection must exist; failed rotation leaves no role', async () => {
    await connect();
    const w = (name: string, body: unknown) => call(served, 'POST', `/v1/database/static-roles/${name}`, { body });
    expect((await w('s', { db_name: 'pg', rotation_period: 60 })).body.errors).toEqual(['username is a required field to create a static account']);
    expect((await w('s', { db_name: 'pg', username: 'staticuser' })).body.errors).toEqual(['rotation_period is required to create static accounts']);
    expect((await w('s', { db_name: 'pg', username: 'staticuser', rotation_period: 4 })).body.errors).toEqual(['rotation_period must be 5 seconds or more']);
    expect((await w('s', { db_name: 'none', username: 'staticuser', rotation_period: 60 })).status).toBe(400);
    expect((await w('s', { db_name: 'pg', username: 'staticuser', rotation_period: 60 })).status).toBe(204);
    expect((await w('s', { username: 'other' })).body.errors).toEqual(['cannot update static account username']);
    expect((await w('s', { rotation_period: '2m' })).status).toBe(204);
    expect((await db.readStaticRole('database', 's'))?.rotation_period).toBe(120);
    const missing = await w('m', { db_name: 'pg', username: 'no_such_user', rotation_period: 60 });
    expect(missing.status).toBe(500);
    expect(missing.body.errors[0]).toMatch(/no_such_user/);
    expect((await call(served, 'GET', '/v1/database/static-roles/m')).status).toBe(404);
  });
});

describe('hostile names', () => {
  const isSuperuser = async (role: string) =>
    (await asSuperuser<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = $1', [role]))[0]?.rolsuper;

  beforeEach(async () => {
    await asSuperuser(`DROP ROLE IF EXISTS staticuser; CREATE ROLE staticuser WITH LOGIN PASSWORD 'initial-pass'`);
    await asSuperuser(`DROP ROLE IF EXISTS "odd"" SUPERUSER --"; CREATE ROLE "odd"" SUPERUSER --" WITH LOGIN PASSWORD 'initial-pass'`);
  });

  test('a static-role username that would close the quoted identifier does not create a superuser', async () => {
    await connect();
    const hostile = 'staticuser" SUPERUSER --';
    const r = await call(served, 'POST', '/v1/database/static-roles/st', { body: { db_name: 'pg', username: hostile, rotation_period: 60 } });
    expect(r.status).toBe(500);
    expect(r.body.errors).toEqual([`error setting credentials for static role "st": user "${hostile}" does not appear to exist`]);
    expect(await isSuperuser('staticuser')).toBe(false);
    expect((await call(served, 'GET', '/v1/database/static-roles/st')).status).toBe(404);
  });

  test('an existing user whose name holds quotes is rotated as one identifier', async () => {
    await connect();
    const odd = 'odd" SUPERUSER --';
    expect(await call(served, 'POST', '/v1/database/static-roles/odd', { body: { db_name: 'pg', username: odd, rotation_period: 60 } }))
      .toMatchObject({ status: 204 });
    const creds = await db.staticCredentials('database', 'odd');
    expect(await canLogin(odd, creds.password)).toBe(true);
    expect(await isSuperuser(odd)).toBe(false);
  });

  test('role and connection names are restricted as the real routes restrict them', async () => {
    await connect();
    for (const path of ['roles/x%22%20SUPERUSER', 'static-roles/a%27b', 'config/a%20b', 'roles/-lead', 'roles/trail.']) {
      const r = await call(served, 'POST', `/v1/database/${path}`, { body: { db_name: 'pg', creation_statements: CREATE } });
      expect([path, r.status, r.body]).toEqual([path, 404, { errors: ['unsupported path'] }]);
    }
    expect(await call(served, 'POST', '/v1/database/roles/app.v2-ro_1', { body: { db_name: 'pg', creation_statements: CREATE } }))
      .toMatchObject({ status: 204 });
    const creds = await db.generateCredentials('database', 'app.v2-ro_1');
    expect(await canLogin(creds.username, creds.password)).toBe(true);
    expect(await isSuperuser(creds.username)).toBe(false);
  });
});

test('snapshot seals passwords and restore keeps working state; close stops timers', async () => {
  const emu = new SecretsEmulator({ rootToken: ROOT_TOKEN });
  const s = await ServedApi.start(emu, { port: 0 });
  try {
    expect((await call(s, 'POST', '/v1/database/config/pg', {
      body: { plugin_name: 'postgresql-database-plugin', connection_url: templateUrl(), username: rootUser, password: rootPassword, allowed_roles: '*' },
    })).status).toBe(204);
    const snap = emu.snapshot();
    expect(JSON.stringify(snap)).not.toContain(rootPassword);
    const copy = new SecretsEmulator({ rootToken: ROOT_TOKEN });
    copy.restore(snap);
    const s2 = await ServedApi.start(copy, { port: 0 });
    try {
      expect((await call(s2, 'POST', '/v1/database/reset/pg')).status).toBe(204);
    } finally {
      await s2.stop();
    }
  } finally {
    await s.stop();
  }
});

test('the LIST method lists like ?list=true (sent to the handler directly; over sockets in test/emulator-clients)', async () => {
  const emu = new SecretsEmulator({ rootToken: ROOT_TOKEN });
  const req = (method: string, path: string, body?: unknown) => emu.handle({
    method, path, rawPath: path, query: new URLSearchParams(), headers: { 'x-secrets-token': ROOT_TOKEN },
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
  });
  expect(await req('LIST', '/v1/database/roles')).toMatchObject({ status: 404, body: { errors: [] } });
  await req('POST', '/v1/database/roles/r', { db_name: 'pg', creation_statements: CREATE });
  await req('POST', '/v1/database/static-roles/s', { db_name: 'pg', username: 'u', rotation_period: 60 });
  expect(await req('LIST', '/v1/database/roles')).toMatchObject({ status: 200, body: { data: { keys: ['r'] } } });
  expect(await req('LIST', '/v1/database/static-roles')).toMatchObject({ status: 404 });
  expect(await req('LIST', '/v1/database/config')).toMatchObject({ status: 404 });
  expect(await req('LIST', '/v1/database/roles/r')).toMatchObject({ status: 405 });
  await emu.close();
});

test('a lease opened by a GET survives a restart from the data directory and is revoked by the restarted emulator', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-db-'));
  try {
    const first = await ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN, clock }), { port: 0, dataDir });
    await call(first, 'POST', '/v1/database/config/pg', {
      body: { plugin_name: 'postgresql-database-plugin', connection_url: templateUrl(), username: rootUser, password: rootPassword, allowed_roles: '*' },
    });
    await call(first, 'POST', '/v1/database/roles/app', { body: { db_name: 'pg', creation_statements: CREATE, default_ttl: 60 } });
    const creds = (await call(first, 'GET', '/v1/database/creds/app')).body.data;
    await first.stop();
    expect(fs.readFileSync(path.join(dataDir, fs.readdirSync(dataDir)[0]), 'utf8')).not.toContain(creds.username);
    const second = await ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN, clock }), { port: 0, dataDir });
    try {
      await advance(second, clock, 59_999);
      expect(await roleExists(creds.username)).toBe(true);
      await advance(second, clock, 1);
      expect(await roleExists(creds.username)).toBe(false);
    } finally {
      await second.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
