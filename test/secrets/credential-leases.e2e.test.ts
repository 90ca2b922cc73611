import { TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import * as secrets from '../../lib/secrets';
import { startPostgres, TestPostgres } from '../support/postgres';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';


const BINDDN = 'CN=leases,OU=svc,DC=example,DC=com';

// Leases of credentials converge issued live as long as converge says: a plan looks a kept lease up (one
// request) and issues new credentials when it was revoked outside converge; destroy, and the replacement of
// the data source, revoke them (the database user is dropped, the library account checked back in) and say so.
// Through the real CLI against the emulator and a real PostgreSQL: no database user is left behind.
describe('credential leases', () => {
  let pg: TestPostgres;
  let world: TestWorld;
  let hostPart: string;

  const sql = async (text: string) => {
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    try { return (await c.query(text)).rows; } finally { await c.end(); }
  };
  /** Database users the service issued (the emulator names them `v-root-<role>-…`). */
  const issuedUsers = async (): Promise<string[]> => (await sql('SELECT rolname FROM pg_roles WHERE rolname LIKE \'v-%\' ORDER BY 1')).map((r) => r.rolname);
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/${path}`, {
      method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const run = (args: string[], dir: string) => cliAsync([...args, '--synth-dir', dir], world.env);

  beforeAll(async () => {
    pg = await startPostgres();
    const u = new URL(pg.url);
    hostPart = `${u.host}${u.pathname}`;
    await sql('CREATE ROLE leases_root WITH LOGIN CREATEROLE PASSWORD \'leases-root-pass\'');
    world = await startWorld({}, { LEASES_DB_ROOT: 'leases-root-pass', LEASES_BINDPASS: 'leases-bind-pass' });
    const admin = (p: string, body: unknown) => fetch(`${world.env.SECRETS_ADDR}/__admin/directory/directory/accounts/${p}`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    await admin(BINDDN, { password: 'leases-bind-pass' });
    await admin('svc-lease-a', {});
  });
  afterAll(async () => { await world.stop(); await pg.stop(); });

  const app = (role = 'app') => synthApp((st: TerraformStack) => {
    const conn = new secrets.DatabaseConnection(st, 'pg', {
      name: 'lease-db', connectionUrl: `postgresql://{{username}}:{{password}}@${hostPart}`, username: 'leases_root',
      password: SecretValue.fromEnv('LEASES_DB_ROOT'), allowedRoles: ['app', 'other'],
    });
    const statements = ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''];
    const roles = {
      app: new secrets.DatabaseRole(st, 'app-role', { name: 'app', connection: conn, defaultTtl: '1h', creationStatements: statements }),
      other: new secrets.DatabaseRole(st, 'other-role', { name: 'other', connection: conn, defaultTtl: '1h', creationStatements: statements }),
    };
    const creds = new secrets.DatabaseCredentials(st, 'creds', { role: roles[role as 'app' | 'other'] });
    const config = new secrets.DirectoryConfig(st, 'dir', { binddn: BINDDN, bindpass: SecretValue.fromEnv('LEASES_BINDPASS') });
    const set = new secrets.DirectoryLibrarySet(st, 'lib', { config, name: 'lease-ops', serviceAccountNames: ['svc-lease-a'], ttl: '2h' });
    const lent = new secrets.DirectoryLibraryCheckOut(st, 'lent', { librarySet: set, ttl: '1h' });
    new secrets.KvSecret(st, 'kv', { path: 'leases/app', data: { user: creds.username, password: creds.password, account: lent.serviceAccountName } });
  }, 'leases');

  test('the emulator serves sys/leases/lookup, renew and revoke as the real service answers them', async () => {
    const dir = app();
    expect((await run(['apply', '--auto-approve'], dir)).status).toBe(0);
    const issued = await api('GET', 'database/creds/app');
    const id: string = issued.body.lease_id;
    const lookup = await api('PUT', 'sys/leases/lookup', { lease_id: id });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ lease_id: '', renewable: false, lease_duration: 0 });
    expect(lookup.body.data).toMatchObject({ id, path: 'database/creds/app', renewable: true, last_renewal: null, ttl: 3600 });
    expect(Date.parse(lookup.body.data.expire_time) - Date.parse(lookup.body.data.issue_time)).toBe(3600_000);
    const renew = await api('PUT', 'sys/leases/renew', { lease_id: id, increment: 600 });
    expect(renew.status).toBe(200);
    expect(renew.body).toMatchObject({ lease_id: id, renewable: true, lease_duration: 600, data: null });
    expect((await api('PUT', 'sys/leases/lookup', { lease_id: id })).body.data.last_renewal).not.toBeNull();
    expect(await issuedUsers()).toContain(issued.body.data.username);
    expect((await api('PUT', 'sys/leases/revoke', { lease_id: id })).status).toBe(204);
    expect(await issuedUsers()).not.toContain(issued.body.data.username);
    expect(await api('PUT', 'sys/leases/lookup', { lease_id: id })).toEqual({ status: 400, body: { errors: ['invalid lease'] } });
    expect(await api('PUT', 'sys/leases/renew', { lease_id: id })).toEqual({ status: 400, body: { errors: ['lease not found'] } });
    expect((await api('PUT', 'sys/leases/revoke', { lease_id: id })).status).toBe(204);
    expect(await api('PUT', 'sys/leases/revoke', {})).toEqual({ status: 400, body: { errors: ['lease_id must be specified'] } });
    expect((await api('GET', 'sys/leases/lookup')).status).toBe(405);
    expect((await run(['destroy', '--auto-approve'], dir)).status).toBe(0);
  });

  test('a lease revoked outside converge is noticed by the plan; destroy revokes what converge issued and leaves no database user', async () => {
    const dir = app();
    for (let round = 0; round < 3; round++) {
      const apply = await run(['apply', '--auto-approve'], dir);
      expect(apply.stderr).toBe('');
      expect(apply.status).toBe(0);
      const stored = (await api('GET', 'secret/data/leases/app')).body.data.data;
      expect(await issuedUsers()).toEqual([stored.user]);
      expect((await api('GET', 'directory/library/lease-ops/status')).body.data['svc-lease-a'].available).toBe(false);

      if (round === 0) {
        expect((await run(['plan', '--detailed-exitcode'], dir)).status).toBe(0);
        // Revoked outside converge: the user is dropped; the next plan sees it and issues new credentials.
        const leaseId = JSON.parse((await cliAsync(['output', '--json', '--stack', 'leases'], world.env)).stdout).creds.leaseId;
        expect((await api('PUT', 'sys/leases/revoke', { lease_id: leaseId })).status).toBe(204);
        expect(await issuedUsers()).toEqual([]);
        const plan = await run(['plan', '--detailed-exitcode'], dir);
        expect(plan.status).toBe(2);
        expect(plan.stdout).toContain(`its lease ${leaseId} was revoked outside converge: new credentials are issued during apply`);
        expect((await run(['apply', '--auto-approve'], dir)).status).toBe(0);
        const fresh = (await api('GET', 'secret/data/leases/app')).body.data.data;
        expect(fresh.user).not.toBe(stored.user);
        expect(await issuedUsers()).toEqual([fresh.user]);
        expect((await run(['plan', '--detailed-exitcode'], dir)).status).toBe(0);
      }

      const plan = await run(['plan', '--destroy'], dir);
      expect(plan.stdout).toMatch(/creds \(secrets\.DatabaseCredentials\).*revokes lease database\/creds\/app\/\S+: its database user is dropped/);
      expect(plan.stdout).toMatch(/lent \(secrets\.DirectoryLibraryCheckOut\).*revokes lease directory\/library\/lease-ops\/check-out\/\S+: its account is checked back in/);
      expect(plan.stdout).toContain('Credentials converge issued and keeps in state (DatabaseCredentials) are revoked first, which drops their database users');
      expect(plan.stdout).not.toContain('live until their lease ends');
      const destroy = await run(['destroy', '--auto-approve'], dir);
      expect(destroy.stderr).toBe('');
      expect(destroy.status).toBe(0);
      expect(destroy.stdout + destroy.stderr).toMatch(/creds: .*revoked lease database\/creds\/app\/\S+: its database user is dropped/);
      expect(await issuedUsers()).toEqual([]);
      // The library set's delete, which the service refuses while an account is out, succeeded: the account was checked in.
      expect((world.emulator.apis.secrets as any).mounts.get('directory').engine.snapshot().checkouts).toEqual({});
    }
  });

  test('a replaced credential data source revokes the credentials it held', async () => {
    const first = app('app');
    expect((await run(['apply', '--auto-approve'], first)).status).toBe(0);
    const before = (await api('GET', 'secret/data/leases/app')).body.data.data.user;
    const leaseId = JSON.parse((await cliAsync(['output', '--json', '--stack', 'leases'], world.env)).stdout).creds.leaseId;
    // The plan says that the credentials are issued again, and what becomes of the ones they replace.
    const plan = await run(['plan'], app('other'));
    expect(plan.stdout).toContain(`creds (secrets.DatabaseCredentials) will be read (new credentials are issued during apply: what it reads changed; ` +
      `the lease ${leaseId} they replace is revoked once the objects that use them hold the new ones)`);
    const apply = await run(['apply', '--auto-approve'], app('other'));
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    const after = (await api('GET', 'secret/data/leases/app')).body.data.data.user;
    expect(after).toMatch(/^v-root-other-/);
    expect(await issuedUsers()).toEqual([after]);
    expect(await issuedUsers()).not.toContain(before);
    expect((await run(['destroy', '--auto-approve'], app('other'))).status).toBe(0);
    expect(await issuedUsers()).toEqual([]);
  });
});
