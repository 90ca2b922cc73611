import * as fs from 'fs';
import * as path from 'path';
import { Client } from 'pg';
import { parseEnvFile } from '../../lib/cli/emulator-env-file';
import { allFiles, cliAsync, ROOT, startWorld, tempDir, TestWorld } from '../support/harness';
import { startPostgres, TestPostgres } from '../support/postgres';


// examples/secrets-app run as a user would: the real CLI (dist/) in the example's directory, against the emulator
// and a real PostgreSQL whose address and credentials reach the app through the environment.
describe('examples/secrets-app', () => {
  const dir = path.join(ROOT, 'examples', 'secrets-app');
  const adminPassword = 'billing-admin-pass-3f9c1a';
  const apiKey = 'billing-api-key-8d2e71';
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
  const api = async (method: string, p: string) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/${p}`, { method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const run = (...args: string[]) => cliAsync(args, world.env, dir);

  beforeAll(async () => {
    pg = await startPostgres();
    const u = new URL(pg.url);
    hostPart = `${u.host}${u.pathname}`;
    // What the README asks of the database: an administrative role, and the static account granted to it.
    await sql(`CREATE ROLE billing_admin WITH LOGIN CREATEROLE PASSWORD '${adminPassword}'`);
    await sql('CREATE ROLE billing_reporting WITH LOGIN PASSWORD \'initial-pass\'; GRANT billing_reporting TO billing_admin WITH ADMIN OPTION');
    world = await startWorld({}, {
      BILLING_DB_HOST: hostPart, BILLING_DB_ADMIN_USER: 'billing_admin', BILLING_DB_ADMIN_PASSWORD: adminPassword, BILLING_API_KEY: apiKey,
      // As the README says: the app reads these settings, so they are named for synthesis (its environment is an allow-list).
      CONVERGE_SYNTH_ENV: 'BILLING_DB_HOST,BILLING_DB_ADMIN_USER,BILLING_DB_STATIC_USER',
    });
  });
  afterAll(async () => { await world?.stop(); await pg?.stop(); });

  test('plan, apply, no-op plan, destroy', async () => {
    let r = await run('plan', '--detailed-exitcode');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    for (const a of ['config', 'db', 'app-role', 'reporting-role', 'admin-totp', 'admin-enrolment']) expect(r.stdout).toMatch(new RegExp(`${a} \\(secrets\\.\\w+\\) will be created`));

    r = await run('apply', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);

    const kv = await api('GET', 'secret/data/billing/config');
    expect(kv.body.data.data).toEqual({ apiKey, logLevel: 'info', region: 'eu-west-1' });
    expect(kv.body.data.metadata.custom_metadata).toEqual({ owner: 'billing-team' });
    // The root password was rotated: only the service knows it now.
    expect(await canLogin('billing_admin', adminPassword)).toBe(false);
    // Dynamic credentials log in; the static account's password was rotated and works.
    const creds = await api('GET', 'database/creds/billing-app');
    expect(creds.body.lease_duration).toBe(3600);
    expect(await canLogin(creds.body.data.username, creds.body.data.password)).toBe(true);
    const st = await api('GET', 'database/static-creds/billing-reporting');
    expect(st.body.data.username).toBe('billing_reporting');
    expect(await canLogin('billing_reporting', st.body.data.password)).toBe(true);
    expect(await canLogin('billing_reporting', 'initial-pass')).toBe(false);
    expect((await api('GET', 'totp/keys/billing-admin')).body.data).toMatchObject({ issuer: 'Billing', account_name: 'admin@billing.example' });
    // The generated key's URL is a sensitive output.
    r = await run('output', '--show-sensitive');
    expect(r.stdout).toContain('otpauth://totp/Billing:admin@billing.example');
    // ... stored into the KV store as a secret: it arrives, and its key is written nowhere in clear.
    const enrolment = (await api('GET', 'secret/data/billing/admin-totp')).body.data.data.otpauth as string;
    expect(enrolment).toMatch(/^otpauth:\/\/totp\/Billing:admin@billing\.example\?.*secret=[A-Z2-7]+/);
    const totpSecret = /secret=([A-Z2-7]+)/.exec(enrolment)![1];

    r = await run('plan', '--detailed-exitcode');
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);

    // Neither the API key nor the admin password is ever written in clear to the state directory.
    for (const f of allFiles(world.dir)) expect([f.file, f.text.includes(apiKey) || f.text.includes(adminPassword) || f.text.includes(totpSecret)]).toEqual([f.file, false]);

    r = await run('destroy', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const p of ['secret/data/billing/config', 'secret/data/billing/admin-totp', 'database/config/billing-db', 'database/roles/billing-app',
      'database/static-roles/billing-reporting', 'totp/keys/billing-admin']) {
      expect([p, (await api('GET', p)).status]).toEqual([p, 404]);
    }
  });
});

// The README's other recipe: the emulator's own PostgreSQL (converge emulator --postgres), nothing prepared by hand.
describe('examples/secrets-app against converge emulator --postgres', () => {
  const dir = path.join(ROOT, 'examples', 'secrets-app');
  const tmp = tempDir('converge-secrets-app-pg-');
  const envFile = path.join(tmp, 'emulator.env');
  const bare = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TMPDIR: process.env.TMPDIR };
  afterAll(async () => {
    if (fs.existsSync(envFile)) await cliAsync(['emulator', 'stop', envFile], bare, tmp);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('apply and destroy with the variables the README maps from DB_ADDRESS and DB_ROOT_PASSWORD', async () => {
    let r = await cliAsync(['emulator', '--postgres', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0', '--write-env', envFile, '--detach'], bare, tmp);
    expect(r.status).toBe(0);
    const emu = parseEnvFile(fs.readFileSync(envFile, 'utf8'));
    const env: NodeJS.ProcessEnv = {
      ...bare, ...emu, CONVERGE_DIR: path.join(tmp, '.converge'), CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY,
      BILLING_DB_HOST: `${emu.DB_ADDRESS}/app`, BILLING_DB_ADMIN_USER: 'vault_root', BILLING_DB_ADMIN_PASSWORD: emu.DB_ROOT_PASSWORD,
      BILLING_DB_STATIC_USER: 'reporting', BILLING_API_KEY: 'billing-api-key-pg-51e0',
      CONVERGE_SYNTH_ENV: 'BILLING_DB_HOST,BILLING_DB_ADMIN_USER,BILLING_DB_STATIC_USER',
    };
    r = await cliAsync(['apply', '--auto-approve'], env, dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const headers = { 'x-secrets-token': emu.SECRETS_TOKEN };
    const st = await (await fetch(`${emu.SECRETS_ADDR}/v1/database/static-creds/billing-reporting`, { headers })).json() as { data: { username: string; password: string } };
    expect(st.data.username).toBe('reporting');
    const c = new Client({ connectionString: `postgresql://reporting:${encodeURIComponent(st.data.password)}@${emu.DB_ADDRESS}/app` });
    await c.connect();
    await c.end();
    r = await cliAsync(['destroy', '--auto-approve'], env, dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
