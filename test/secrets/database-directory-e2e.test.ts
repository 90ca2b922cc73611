import { TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import * as secrets from '../../lib/secrets';
import { startPostgres, TestPostgres } from '../support/postgres';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';


const BINDDN = 'CN=converge,OU=svc,DC=example,DC=com';

// End to end through the real CLI (dist/) against the emulator over HTTP and a real PostgreSQL.
describe('database and directory constructs through the CLI', () => {
  let pg: TestPostgres;
  let world: TestWorld;
  let hostPart: string;

  const sql = async (text: string) => {
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    try { await c.query(text); } finally { await c.end(); }
  };
  const canLogin = async (user: string, password: string) => {
    const c = new Client({ connectionString: `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${hostPart}` });
    c.on('error', () => undefined);
    try { await c.connect(); return true; } catch { return false; } finally { await c.end().catch(() => undefined); }
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}${path}`, {
      method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    pg = await startPostgres();
    const u = new URL(pg.url);
    hostPart = `${u.host}${u.pathname}`;
    await sql('CREATE ROLE e2e_root WITH LOGIN CREATEROLE PASSWORD \'e2e-root-pass\'');
    await sql('CREATE ROLE e2e_static WITH LOGIN PASSWORD \'static-pass\'; GRANT e2e_static TO e2e_root WITH ADMIN OPTION');
    world = await startWorld({ secretsMounts: { database: 'database', directory: 'directory' } },
      { E2E_DB_ROOT: 'e2e-root-pass', E2E_BINDPASS: 'bind-pass' });
    await api('POST', `/__admin/directory/directory/accounts/${BINDDN}`, { password: 'bind-pass' });
    for (const a of ['svc-a', 'svc-b', 'svc-c']) await api('POST', `/__admin/directory/directory/accounts/${a}`, {});
  });
  afterAll(async () => { await world.stop(); await pg.stop(); });

  const build = (o: { allowed: string[]; ttl: string; libTtl: string; extra?: boolean }) => synthApp((st: TerraformStack) => {
    const conn = new secrets.DatabaseConnection(st, 'pg', {
      name: 'app-db', connectionUrl: `postgresql://{{username}}:{{password}}@${hostPart}`, username: 'e2e_root',
      password: SecretValue.fromEnv('E2E_DB_ROOT'), allowedRoles: o.allowed, rotateRootOnCreate: true,
    });
    new secrets.DatabaseRole(st, 'app-role', {
      name: 'app', connection: conn, defaultTtl: o.ttl,
      creationStatements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
    });
    new secrets.DatabaseStaticRole(st, 'static-role', { name: 'st', connection: conn, username: 'e2e_static', rotationPeriod: '24h' });
    if (o.extra) new secrets.DatabaseRole(st, 'extra-role', { name: 'extra', dbName: 'app-db', creationStatements: ['SELECT 1'] });
    const config = new secrets.DirectoryConfig(st, 'dir', { binddn: BINDDN, bindpass: SecretValue.fromEnv('E2E_BINDPASS'), ttl: '2h' });
    new secrets.DirectoryRole(st, 'dir-role', { name: 'svc', serviceAccountName: 'svc-a', config, ttl: '1h' });
    new secrets.DirectoryLibrarySet(st, 'lib', { name: 'ops', serviceAccountNames: ['svc-b', 'svc-c'], config, ttl: o.libTtl });
  }, 'dbdir');

  test('create, no-op plan, update without re-sending the rotated password, drift, import, destroy', async () => {
    // The static role's name is in allowedRoles: the real service refuses a static role its connection does not allow.
    const v1 = build({ allowed: ['app', 'st'], ttl: '1h', libTtl: '24h' });
    let r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    for (const a of ['pg', 'app-role', 'static-role', 'dir', 'dir-role', 'lib']) expect(r.stdout).toMatch(new RegExp(`${a} \\(secrets\\.\\w+\\) will be created`));
    expect(r.stdout).not.toContain('e2e-root-pass');

    r = await cliAsync(['apply', '--synth-dir', v1, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // rotateRootOnCreate: the password converge was given no longer works; the service's does.
    expect(await canLogin('e2e_root', 'e2e-root-pass')).toBe(false);
    const creds = await api('GET', '/v1/database/creds/app');
    expect(creds.body.lease_duration).toBe(3600);
    expect(await canLogin(creds.body.data.username, creds.body.data.password)).toBe(true);
    const st = await api('GET', '/v1/database/static-creds/st');
    expect(await canLogin('e2e_static', st.body.data.password)).toBe(true);
    expect((await api('GET', '/v1/directory/library/ops')).body.data.service_account_names).toEqual(['svc-b', 'svc-c']);

    r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/i);
    expect(r.status).toBe(0);

    // Update: the connection's write must not carry the (now stale) root password, or verification would fail.
    const v2 = build({ allowed: ['app', 'st', 'other'], ttl: '30m', libTtl: '12h' });
    r = await cliAsync(['apply', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await api('GET', '/v1/database/config/app-db')).body.data.allowed_roles).toEqual(['app', 'other', 'st']);
    expect((await api('GET', '/v1/database/roles/app')).body.data.default_ttl).toBe(1800);
    expect((await api('GET', '/v1/directory/library/ops')).body.data.ttl).toBe(43200);
    const again = await api('GET', '/v1/database/creds/app');
    expect(await canLogin(again.body.data.username, again.body.data.password)).toBe(true);
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    // Drift made outside converge is seen and converged back.
    await api('POST', '/v1/database/roles/app', { default_ttl: 60 });
    await api('POST', '/v1/directory/roles/svc', { ttl: 600 });
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/app-role/);
    expect(r.stdout).toMatch(/dir-role/);
    r = await cliAsync(['apply', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await api('GET', '/v1/database/roles/app')).body.data.default_ttl).toBe(1800);
    expect((await api('GET', '/v1/directory/roles/svc')).body.data.ttl).toBe(3600);

    // Import a role made outside converge by its API path.
    await api('POST', '/v1/database/roles/extra', { db_name: 'app-db', creation_statements: ['SELECT 1'] });
    const v3 = build({ allowed: ['app', 'st', 'other'], ttl: '30m', libTtl: '12h', extra: true });
    r = await cliAsync(['import', '--synth-dir', v3, 'extra-role', 'database/roles/extra'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', v3, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    r = await cliAsync(['destroy', '--synth-dir', v3, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const path of ['/v1/database/config/app-db', '/v1/database/roles/app', '/v1/database/roles/extra', '/v1/database/static-roles/st',
      '/v1/directory/config', '/v1/directory/roles/svc', '/v1/directory/library/ops']) {
      expect({ path, status: (await api('GET', path)).status }).toEqual({ path, status: 404 });
    }
  });
});
