import { TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import * as secrets from '../../lib/secrets';
import { DbState } from '../../lib/secrets/database/database-model.emulator';
import { DirState } from '../../lib/secrets/directory/directory-model.emulator';
import { startPostgres, TestPostgres } from '../support/postgres';
import { allFiles, cliAsync, CliResult, startWorld, synthApp, TestWorld } from '../support/harness';


const BINDDN = 'CN=creds,OU=svc,DC=example,DC=com';

// The credential data sources through the real CLI against the emulator and a real PostgreSQL: leased
// credentials (a dynamic database user, a library check-out) are issued by apply only, kept in state
// (encrypted) and reused by the plans after it, which are no-ops; the others are read at plan time.
// Every generated password feeds a KvSecret and never shows in state, plan, apply or output.
describe('credential data sources', () => {
  let pg: TestPostgres;
  let world: TestWorld;
  let hostPart: string;
  const runs: CliResult[] = [];

  const engine = <T>(mount: string): T => (world.emulator.apis.secrets as any).mounts.get(mount).engine.snapshot() as T;
  const leases = () => Object.keys(engine<DbState>('database').leases).length;
  const checkOuts = () => Object.keys(engine<DirState>('directory').checkouts).length;
  const api = async (path: string) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}${path}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return r.json() as Promise<any>;
  };
  const kv = async (path: string): Promise<Record<string, string>> => (await api(`/v1/secret/data/${path}`)).data.data;
  const run = async (args: string[]) => {
    const r = await cliAsync(args, world.env);
    runs.push(r);
    return r;
  };
  const canLogin = async (user: string, password: string) => {
    const c = new Client({ connectionString: `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${hostPart}` });
    c.on('error', () => undefined);
    try { await c.connect(); return true; } catch { return false; } finally { await c.end().catch(() => undefined); }
  };

  beforeAll(async () => {
    pg = await startPostgres();
    const u = new URL(pg.url);
    hostPart = `${u.host}${u.pathname}`;
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    await c.query('CREATE ROLE creds_root WITH LOGIN CREATEROLE PASSWORD \'creds-root-pass\'');
    await c.query('CREATE ROLE creds_static WITH LOGIN PASSWORD \'static-pass\'; GRANT creds_static TO creds_root WITH ADMIN OPTION');
    await c.end();
    world = await startWorld({}, { CREDS_DB_ROOT: 'creds-root-pass', CREDS_BINDPASS: 'creds-bind-pass' });
    const admin = (p: string, body: unknown) => fetch(`${world.env.SECRETS_ADDR}/__admin/directory/directory/accounts/${p}`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    await admin(BINDDN, { password: 'creds-bind-pass' });
    for (const a of ['svc-role', 'svc-lib-a', 'svc-lib-b']) await admin(a, {});
  });
  afterAll(async () => { await world?.stop(); await pg?.stop(); });

  const app = () => synthApp((st: TerraformStack) => {
    const conn = new secrets.DatabaseConnection(st, 'pg', {
      name: 'app-db', connectionUrl: `postgresql://{{username}}:{{password}}@${hostPart}`, username: 'creds_root',
      password: SecretValue.fromEnv('CREDS_DB_ROOT'), allowedRoles: ['app', 'reporting'],
    });
    const role = new secrets.DatabaseRole(st, 'app-role', {
      name: 'app', connection: conn, defaultTtl: '1h',
      creationStatements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
    });
    const staticRole = new secrets.DatabaseStaticRole(st, 'static-role', { name: 'reporting', connection: conn, username: 'creds_static', rotationPeriod: '24h' });
    const config = new secrets.DirectoryConfig(st, 'dir', { binddn: BINDDN, bindpass: SecretValue.fromEnv('CREDS_BINDPASS') });
    const dirRole = new secrets.DirectoryRole(st, 'dir-role', { config, name: 'svc', serviceAccountName: 'svc-role' });
    const set = new secrets.DirectoryLibrarySet(st, 'lib', { config, name: 'ops', serviceAccountNames: ['svc-lib-a', 'svc-lib-b'], ttl: '2h' });

    const dyn = new secrets.DatabaseCredentials(st, 'app-creds', { role });
    const stat = new secrets.DatabaseStaticCredentials(st, 'static-creds', { role: staticRole });
    const dir = new secrets.DirectoryCredentials(st, 'dir-creds', { role: dirRole });
    const lent = new secrets.DirectoryLibraryCheckOut(st, 'lent', { librarySet: set, ttl: '1h' });
    new secrets.KvSecret(st, 'kv', {
      path: 'app/creds',
      data: {
        dbUser: dyn.username, dbPassword: dyn.password, staticPassword: stat.password,
        dirUser: dir.username, dirPassword: dir.currentPassword, lentAccount: lent.serviceAccountName, lentPassword: lent.password,
      },
    });
  }, 'creds');

  test('issued once by apply, reused by the plans after it (no-ops), usable as inputs, never shown', async () => {
    const dir = app();
    const plan1 = await run(['plan', '--synth-dir', dir, '--detailed-exitcode']);
    expect(plan1.stderr).toBe('');
    expect(plan1.status).toBe(2);
    expect(plan1.stdout).toMatch(/app-creds \(secrets\.DatabaseCredentials\) will be read \(.*during apply/);
    expect(plan1.stdout).toMatch(/lent \(secrets\.DirectoryLibraryCheckOut\) will be read \(.*during apply/);
    // A plan issues nothing: no database user, no account checked out.
    expect([leases(), checkOuts()]).toEqual([0, 0]);

    const apply = await run(['apply', '--synth-dir', dir, '--auto-approve']);
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    expect([leases(), checkOuts()]).toEqual([1, 1]);

    // The outputs fed the KvSecret: the dynamic user logs in, the static and directory passwords are the service's.
    const stored = await kv('app/creds');
    expect(stored.dbUser).toMatch(/^v-root-app-/);
    expect(await canLogin(stored.dbUser, stored.dbPassword)).toBe(true);
    expect(stored.staticPassword).toBe((await api('/v1/database/static-creds/reporting')).data.password);
    expect(await canLogin('creds_static', stored.staticPassword)).toBe(true);
    expect(stored.dirUser).toBe('svc-role');
    expect(stored.dirPassword).toBe((await api('/v1/directory/creds/svc')).data.current_password);
    expect(['svc-lib-a', 'svc-lib-b']).toContain(stored.lentAccount);
    const status = (await api('/v1/directory/library/ops/status')).data;
    expect(status[stored.lentAccount].available).toBe(false);

    // Plans after the apply keep the leased credentials: nothing new is issued and nothing changes.
    for (let i = 0; i < 2; i++) {
      const plan = await run(['plan', '--synth-dir', dir, '--detailed-exitcode']);
      expect(plan.stderr).toBe('');
      // The leased ones are kept (no line); the others are read again, which issues nothing.
      expect(plan.stdout).not.toMatch(/app-creds|lent \(/);
      expect(plan.stdout).toMatch(/Plan: 0 to add, 0 to change, 0 to replace, 0 to destroy/);
      expect(plan.status).toBe(0);
      expect([leases(), checkOuts()]).toEqual([1, 1]);
    }
    // An apply with nothing to do issues nothing either.
    const again = await run(['apply', '--synth-dir', dir, '--auto-approve']);
    expect(again.status).toBe(0);
    expect([leases(), checkOuts()]).toEqual([1, 1]);
    expect((await kv('app/creds')).dbPassword).toBe(stored.dbPassword);

    await run(['output']);
    await run(['state', 'list']);
    // Hygiene: no generated password in state files, plans, applies or any output.
    const generated = [stored.dbPassword, stored.staticPassword, stored.dirPassword, stored.lentPassword];
    for (const p of generated) expect(p.length).toBeGreaterThanOrEqual(14);
    const stateFiles = allFiles(world.dir);
    expect(stateFiles.length).toBeGreaterThan(0);
    for (const p of generated) {
      for (const f of stateFiles) expect({ file: f.file, leaks: f.text.includes(p) }).toEqual({ file: f.file, leaks: false });
      for (const r of runs) expect({ leaks: r.stdout.includes(p) || r.stderr.includes(p) }).toEqual({ leaks: false });
    }
  });

  test('a credential of a role that does not exist fails the plan, naming the construct', async () => {
    const dir = synthApp((st: TerraformStack) => {
      const role = secrets.DatabaseRole.fromName(st, 'gone-role', 'database', 'no-such-role');
      new secrets.DatabaseCredentials(st, 'gone-creds', { role });
    }, 'gone');
    const plan = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(plan.status).toBe(1);
    expect(plan.stderr).toMatch(/gone-role: secrets\.DatabaseRole "database\/roles\/no-such-role" does not exist/);
  });
});
