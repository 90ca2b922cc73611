import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import * as secrets from '../../lib/secrets';
import { cliAsync, CliResult, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';
import { startOpenBao, TestOpenBao } from '../support/openbao';
import { startPostgres, TestPostgres } from '../support/postgres';
import { describeWithTool, realTools } from '../support/real-tools';


// Dynamic database credentials issued again (re-read during apply because their role changed, or
// renewed because their lease grew old) revoke the lease they replace once what uses them holds the
// new ones: on a real OpenBao with a real PostgreSQL, no `v-*` user is left behind, before or after destroy.
describeWithTool('BAO', 'a re-issued credential revokes the lease it replaces (OpenBao, PostgreSQL)', () => {
  let pg: TestPostgres;
  let bao: TestOpenBao;
  let world: TestWorld;
  let hostPart: string;
  let env: NodeJS.ProcessEnv;

  const sql = async (text: string) => {
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    try { return (await c.query(text)).rows; } finally { await c.end(); }
  };
  const issuedUsers = async (): Promise<string[]> => (await sql('SELECT rolname FROM pg_roles WHERE rolname LIKE \'v-%\' ORDER BY 1')).map((r) => r.rolname);

  beforeAll(async () => {
    [pg, bao, world] = await Promise.all([startPostgres(), startOpenBao(realTools().BAO!, { database: 'database' }), startWorld({}, { DB_ROOT: 'lease-root-pass' })]);
    const u = new URL(pg.url);
    hostPart = `${u.host}${u.pathname}`;
    await sql('CREATE ROLE lease_root WITH LOGIN CREATEROLE PASSWORD \'lease-root-pass\'');
    env = { ...world.env, SECRETS_ADDR: bao.address, SECRETS_TOKEN: bao.rootToken, SECRETS_TOKEN_HEADER: 'X-Vault-Token', CONVERGE_DIR: path.join(tempDir(), '.converge') };
  });
  afterAll(async () => {
    await Promise.all([world?.stop(), bao?.stop()]);
    await pg?.stop();
  });

  const app = (stack: string, ttl: string, roleName = 'app') => synthApp((st: TerraformStack) => {
    const conn = new secrets.DatabaseConnection(st, 'pg', {
      name: `${stack}-db`, connectionUrl: `postgresql://{{username}}:{{password}}@${hostPart}`, username: 'lease_root',
      password: SecretValue.fromEnv('DB_ROOT'), allowedRoles: [`${stack}-app`, `${stack}-other`],
    });
    const role = new secrets.DatabaseRole(st, `role-${roleName}`, {
      name: `${stack}-${roleName}`, connection: conn, defaultTtl: ttl, maxTtl: '24h',
      creationStatements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
    });
    const creds = new secrets.DatabaseCredentials(st, 'creds', { role });
    new secrets.KvSecret(st, 'uses', { path: `${stack}/db`, data: { user: creds.username, password: SecretValue.resourceAttribute(creds.password) } });
  }, stack);
  const run = async (args: string[], dir: string): Promise<CliResult> => {
    const r = await cliAsync([...args, '--synth-dir', dir], env);
    if (r.status !== 0 && r.status !== 2) throw new Error(`${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
    return r;
  };
  const stored = async (stack: string) => (await bao.api('GET', `secret/data/${stack}/db`)).body.data.data as { user: string };
  const lease = async (stack: string) => JSON.parse((await cliAsync(['output', '--json', '--stack', stack], env)).stdout).creds as
    { leaseId: string; leaseStartTime: string; leaseDuration: number };

  test('re-read during apply (the role\'s ttl drift repaired): the first lease is revoked, its user dropped', async () => {
    const dir = app('drift', '1h');
    await run(['apply', '--auto-approve'], dir);
    const first = await stored('drift');
    const firstLease = (await lease('drift')).leaseId;
    expect(await issuedUsers()).toEqual([first.user]);

    // The role's ttl changed outside converge: the apply repairs it and re-reads the credentials that depend on it.
    expect((await bao.api('POST', 'database/roles/drift-app', {
      db_name: 'drift-db', default_ttl: 600, max_ttl: 86400,
      creation_statements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
    })).status).toBe(204);
    const apply = await run(['apply', '--auto-approve'], dir);
    expect(apply.status).toBe(0);
    expect(apply.stdout + apply.stderr).toContain(`creds: revoked lease ${firstLease}`);
    const second = await stored('drift');
    expect(second.user).not.toBe(first.user);
    expect(await issuedUsers()).toEqual([second.user]);
    expect((await bao.api('PUT', 'sys/leases/lookup', { lease_id: firstLease })).status).toBe(400);

    expect((await run(['destroy', '--auto-approve'], dir)).status).toBe(0);
    expect(await issuedUsers()).toEqual([]);
  });

  test('the data source names another role and the first role leaves the app: its lease is revoked before the role is deleted', async () => {
    await run(['apply', '--auto-approve'], app('moved', '1h'));
    const first = await stored('moved');
    const firstLease = (await lease('moved')).leaseId;
    const dir = app('moved', '1h', 'other');
    const apply = await run(['apply', '--auto-approve'], dir);
    expect(apply.status).toBe(0);
    expect(apply.stdout + apply.stderr).toContain(`creds: revoked lease ${firstLease}`);
    expect((await bao.api('GET', 'database/roles/moved-app')).status).toBe(404);
    const second = await stored('moved');
    expect(second.user).not.toBe(first.user);
    expect(await issuedUsers()).toEqual([second.user]);
    expect((await run(['destroy', '--auto-approve'], dir)).status).toBe(0);
    expect(await issuedUsers()).toEqual([]);
  });

  test('renewed because the lease grew old: the old lease is revoked once the KV secret holds the new user', async () => {
    const dir = app('aged', '45s');
    await run(['apply', '--auto-approve'], dir);
    const first = await stored('aged');
    const kept = await lease('aged');
    expect(kept.leaseDuration).toBe(45);
    // Past two thirds of the lease, the plan issues new credentials.
    const due = Date.parse(kept.leaseStartTime) + 31_000 - Date.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
    const apply = await run(['apply', '--auto-approve'], dir);
    expect(apply.status).toBe(0);
    expect(apply.stdout + apply.stderr).toContain(`creds: revoked lease ${kept.leaseId}`);
    const second = await stored('aged');
    expect(second.user).not.toBe(first.user);
    expect(await issuedUsers()).toEqual([second.user]);

    expect((await run(['destroy', '--auto-approve'], dir)).status).toBe(0);
    expect(await issuedUsers()).toEqual([]);
  });
});
