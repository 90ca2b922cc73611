import { Client } from 'pg';
import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { HandlerContext, PriorRecord, Spec } from '../../../lib/core/engine/handler';
import { registeredKinds, resourceHandler } from '../../../lib/core/engine/registry';
import { HttpClient, HttpRequest } from '../../../lib/core/http/http-client';
import { DatabaseClient } from '../../../lib/secrets/database/database-client';
import { SecretsClient } from '../../../lib/secrets/client/secrets-client';
import { databaseConnectionHandler } from '../../../lib/secrets/database/database-connection.handler';
import { databaseRoleHandler } from '../../../lib/secrets/database/database-role.handler';
import { databaseStaticRoleHandler } from '../../../lib/secrets/database/database-static-role.handler';
import { startPostgres, TestPostgres } from '../../support/postgres';
import { ROOT_TOKEN, startSecrets } from '../emulator-helpers';
import { registerAllKinds } from '../../../lib/kinds';

registerAllKinds();


let pg: TestPostgres;
let hostPart: string;
let served: ServedApi;
let http: HttpClient;
let ctx: HandlerContext;
let db: DatabaseClient;
let sent: HttpRequest[];

beforeAll(async () => {
  pg = await startPostgres();
  const u = new URL(pg.url);
  hostPart = `${u.host}${u.pathname}`;
});
afterAll(async () => { await pg.stop(); });

beforeEach(async () => {
  served = await startSecrets();
  http = new HttpClient({ api: 'secrets', baseUrl: served.address, authHeaders: { 'x-secrets-token': ROOT_TOKEN }, retries: 0 });
  // Records every request the handlers send, to see what is (and is not) re-sent.
  sent = [];
  const request = http.request.bind(http);
  (http as any).request = (r: HttpRequest) => { sent.push(r); return request(r); };
  ctx = { address: 'stack/db', http };
  db = new DatabaseClient(new SecretsClient(http));
  await sql('DROP ROLE IF EXISTS converge_root; CREATE ROLE converge_root WITH LOGIN CREATEROLE PASSWORD \'root-pass-1\'');
  await sql('DROP ROLE IF EXISTS app_static; CREATE ROLE app_static WITH LOGIN PASSWORD \'static-1\'; GRANT app_static TO converge_root WITH ADMIN OPTION');
});
afterEach(async () => { await http.close(); await served.stop(); });

async function sql(text: string): Promise<void> {
  const c = new Client({ connectionString: pg.url });
  await c.connect();
  try { await c.query(text); } finally { await c.end(); }
}

function connSpec(over: Partial<Spec> = {}): Spec {
  return {
    mount: 'database', name: 'pg', pluginName: 'postgresql-database-plugin', pluginVersion: '', verifyConnection: true,
    allowedRoles: ['app'], rootRotationStatements: [], passwordPolicy: '',
    connectionUrl: `postgresql://{{username}}:{{password}}@${hostPart}`, username: 'converge_root', password: 'root-pass-1',
    disableEscaping: false, rotateRootOnCreate: false, ...over,
  };
}

const prior = (id: string, spec: Spec): PriorRecord => ({ id, spec, outputs: {} });
const WRITE_ONLY = ['password', 'verifyConnection', 'disableEscaping', 'rotateRootOnCreate'];
const withoutWriteOnly = (s: Spec) => Object.fromEntries(Object.entries(s).filter(([k]) => !WRITE_ONLY.includes(k)));
const bodiesTo = (path: string) => sent.filter((r) => r.method === 'POST' && r.path === `/v1/${path}`).map((r) => r.body as Record<string, unknown>);

test('the three kinds are registered; identities and import ids are API paths', () => {
  expect(registeredKinds().resources).toEqual(expect.arrayContaining(['secrets.DatabaseConnection', 'secrets.DatabaseRole', 'secrets.DatabaseStaticRole']));
  expect(resourceHandler('secrets.DatabaseRole')).toBe(databaseRoleHandler);
  expect(databaseConnectionHandler.naturalId(connSpec())).toBe('database/config/pg');
  expect(databaseRoleHandler.importId!('database/roles/app')).toBe('database/roles/app');
  expect(databaseStaticRoleHandler.importId!('db/x/static-roles/app')).toBe('db/x/static-roles/app');
  expect(() => databaseRoleHandler.importId!('database/app')).toThrow(/<mount>\/roles\/<name>/);
  expect(() => databaseConnectionHandler.importId!('database/config/')).toThrow(/database\/config\/app-db/);
  expect(databaseConnectionHandler.destroyWarning).toMatch(/lost/);
});

describe('DatabaseConnection', () => {
  test('create, read (the password left out), no-op, update without re-sending the password, delete', async () => {
    const s = connSpec();
    const w = await databaseConnectionHandler.create(ctx, s);
    expect(w).toEqual({ id: 'database/config/pg' });
    expect(bodiesTo('database/config/pg')[0].password).toBe('root-pass-1');
    const o = await databaseConnectionHandler.read(ctx, w.id, s);
    expect(o?.fields).toEqual(withoutWriteOnly(s));
    sent = [];
    const s2 = connSpec({ allowedRoles: ['app', 'other'] });
    await databaseConnectionHandler.update(ctx, w.id, s2, [{ path: 'allowedRoles[1]', sensitive: false, replace: false }], prior(w.id, s));
    expect(bodiesTo('database/config/pg')).toHaveLength(1);
    expect(bodiesTo('database/config/pg')[0]).not.toHaveProperty('password');
    expect((await db.readConnection('database', 'pg'))?.allowed_roles).toEqual(['app', 'other']);
    // A changed password is sent.
    await sql('ALTER ROLE converge_root WITH PASSWORD \'root-pass-2\'');
    sent = [];
    await databaseConnectionHandler.update(ctx, w.id, connSpec({ password: 'root-pass-2' }), [{ path: 'password', sensitive: true, replace: false }], prior(w.id, s2));
    expect(bodiesTo('database/config/pg')[0].password).toBe('root-pass-2');
    await databaseConnectionHandler.delete(ctx, w.id, prior(w.id, s));
    expect(await databaseConnectionHandler.read(ctx, w.id, s)).toBeUndefined();
    await databaseConnectionHandler.delete(ctx, w.id, prior(w.id, s)); // already gone: success
  });

  test('rotateRootOnCreate: only the service knows the root password, and later updates keep working', async () => {
    const s = connSpec({ rotateRootOnCreate: true, allowedRoles: ['*'] });
    const w = await databaseConnectionHandler.create(ctx, s);
    expect(sent.some((r) => r.path === '/v1/database/rotate-root/pg')).toBe(true);
    const probe = new Client({ connectionString: `postgresql://converge_root:root-pass-1@${hostPart}` });
    probe.on('error', () => undefined);
    await expect(probe.connect()).rejects.toThrow(/password authentication failed/);
    await probe.end().catch(() => undefined);
    // An update that does not touch the password must not send the stale one (verification would fail).
    await databaseConnectionHandler.update(ctx, w.id, connSpec({ rotateRootOnCreate: true, allowedRoles: ['app'] }),
      [{ path: 'allowedRoles[0]', sensitive: false, replace: false }], prior(w.id, s));
    await db.writeRole('database', 'app', { db_name: 'pg', creation_statements: ['CREATE ROLE "{{name}}" LOGIN PASSWORD \'{{password}}\''] });
    const creds = await db.generateCredentials('database', 'app');
    expect(creds.username).toMatch(/^v-root-app-/);
  });

  test('a wrong password fails create with the service\'s message', async () => {
    await expect(databaseConnectionHandler.create(ctx, connSpec({ password: 'nope' }))).rejects.toThrow(/error verifying connection/);
  });
});

describe('DatabaseRole and DatabaseStaticRole', () => {
  beforeEach(async () => { await databaseConnectionHandler.create(ctx, connSpec({ allowedRoles: ['*'] })); });

  const roleSpec = (over: Partial<Spec> = {}): Spec => ({
    mount: 'database', name: 'app', dbName: 'pg', defaultTtl: '1h', maxTtl: '0s',
    creationStatements: ['CREATE ROLE "{{name}}" LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
    revocationStatements: [], rollbackStatements: [], renewStatements: [], credentialType: 'password', credentialConfig: {}, ...over,
  });

  test('role: create, no-op read in the canonical duration form, update, delete', async () => {
    const s = roleSpec();
    const w = await databaseRoleHandler.create(ctx, s);
    expect(w.id).toBe('database/roles/app');
    expect((await databaseRoleHandler.read(ctx, w.id, s))?.fields).toEqual(s);
    const s2 = roleSpec({ defaultTtl: '30m', revocationStatements: ['DROP ROLE "{{name}}"'] });
    await databaseRoleHandler.update(ctx, w.id, s2, [], prior(w.id, s));
    expect((await databaseRoleHandler.read(ctx, w.id, s2))?.fields).toEqual(s2);
    expect((await databaseRoleHandler.read(ctx, w.id))?.fields.defaultTtl).toBe('30m');
    await databaseRoleHandler.delete(ctx, w.id, prior(w.id, s2));
    expect(await databaseRoleHandler.read(ctx, w.id, s2)).toBeUndefined();
  });

  test('static role: create rotates the user, no-op read, update, delete leaves the user', async () => {
    const s: Spec = {
      mount: 'database', name: 'st', dbName: 'pg', username: 'app_static', rotationPeriod: '24h', rotationStatements: [],
      credentialType: 'password', credentialConfig: {},
    };
    const w = await databaseStaticRoleHandler.create(ctx, s);
    expect(w.id).toBe('database/static-roles/st');
    expect((await databaseStaticRoleHandler.read(ctx, w.id, s))?.fields).toEqual(s);
    const creds = await db.staticCredentials('database', 'st');
    expect(creds.password).not.toBe('static-1');
    const s2 = { ...s, rotationPeriod: '12h' };
    await databaseStaticRoleHandler.update(ctx, w.id, s2, [{ path: 'rotationPeriod', sensitive: false, replace: false }], prior(w.id, s));
    expect((await databaseStaticRoleHandler.read(ctx, w.id, s2))?.fields.rotationPeriod).toBe('12h');
    expect(databaseStaticRoleHandler.replaceFields).toContain('username');
    await databaseStaticRoleHandler.delete(ctx, w.id, prior(w.id, s2));
    expect(await databaseStaticRoleHandler.read(ctx, w.id, s2)).toBeUndefined();
  });
});
