import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { Client } from 'pg';
import { parseEnvFile } from '../../lib/cli/emulator-env-file';
import { allFiles, cliAsync, ROOT, tempDir } from '../support/harness';
import { linkModules } from '../support/packaged';


// `converge emulator --postgres`: the emulator runs a PostgreSQL of its own, so that the database samples of
// docs/secrets-database-directory.md run as they are, with no setup: each TypeScript one is applied through the real
// CLI against a detached emulator started by the real CLI, checked in the database, and destroyed.

const DOC = path.join(ROOT, 'docs', 'secrets-database-directory.md');
const samples = [...fs.readFileSync(DOC, 'utf8').matchAll(/^```ts sample=(secrets\.Database\w+)\n([\s\S]*?)^```$/gm)]
  .map((m) => ({ kind: m[1], code: m[2] }))
  // The connection's sample rotates vault_root's password: last, as the page says.
  .sort((a, b) => Number(a.kind === 'secrets.DatabaseConnection') - Number(b.kind === 'secrets.DatabaseConnection'));

/** A cdktf app whose one stack's body is the sample, run by the repo's tsx; cdk-converge linked to the repo. */
function sampleApp(code: string): string {
  const app = tempDir('converge-db-sample-');
  linkModules(app);
  const lines = code.split('\n');
  fs.writeFileSync(path.join(app, 'main.ts'), `import { App, TerraformStack } from 'cdktf';\n${lines.filter((l) => l.startsWith('import ')).join('\n')}\n`
    + `const app = new App();\nconst stack = new TerraformStack(app, 'db-sample');\n${lines.filter((l) => !l.startsWith('import ')).join('\n')}\napp.synth();\n`);
  const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  fs.writeFileSync(path.join(app, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: `"${process.execPath}" "${tsx}" main.ts`, output: 'cdktf.out' }));
  return app;
}

/** What the user's shell has after `set -a; . ./FILE; set +a`. */
function shellWith(envFile: string, app: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TMPDIR: process.env.TMPDIR, ...parseEnvFile(fs.readFileSync(envFile, 'utf8')),
    CONVERGE_DIR: path.join(app, '.converge'), CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY,
  };
}

async function canLogin(address: string, user: string, password: string): Promise<boolean> {
  const c = new Client({ connectionString: `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${address}/app` });
  c.on('error', () => undefined);
  try { await c.connect(); return true; } catch { return false; } finally { await c.end().catch(() => undefined); }
}

function listening(address: string): Promise<boolean> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const s = net.connect(Number(port), host, () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
  });
}

async function secretsApi(env: NodeJS.ProcessEnv, p: string): Promise<{ status: number; body: any }> {
  const r = await fetch(`${env.SECRETS_ADDR}/v1/${p}`, { headers: { 'x-secrets-token': env.SECRETS_TOKEN! } });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

const ports = ['--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0'];
const bare = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TMPDIR: process.env.TMPDIR };

describe('converge emulator --postgres runs the database samples as they are', () => {
  const dir = tempDir('converge-emu-pg-');
  const envFile = path.join(dir, 'emulator.env');
  let emulatorEnv: Record<string, string>;

  beforeAll(async () => {
    const r = await cliAsync(['emulator', '--postgres', ...ports, '--write-env', envFile, '--detach'], bare, dir);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    emulatorEnv = parseEnvFile(fs.readFileSync(envFile, 'utf8'));
  });
  afterAll(async () => {
    if (fs.existsSync(envFile)) await cliAsync(['emulator', 'stop', envFile], bare, dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the env file names the database: its address, the admin password and the variable for synthesis', async () => {
    expect(emulatorEnv.DB_ADDRESS).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(emulatorEnv.DB_ROOT_PASSWORD).toMatch(/^[0-9a-f]{32}$/);
    expect(emulatorEnv.CONVERGE_SYNTH_ENV).toBe('DB_ADDRESS');
    expect(await canLogin(emulatorEnv.DB_ADDRESS, 'vault_root', emulatorEnv.DB_ROOT_PASSWORD)).toBe(true);
    expect(await canLogin(emulatorEnv.DB_ADDRESS, 'vault_root', 'wrong')).toBe(false);
    // The file holds the password: owner-only, as it holds the tokens.
    expect(fs.statSync(envFile).mode & 0o777).toBe(0o600);
  });

  test('the page has the five database samples, each saying it runs against the emulator', () => {
    expect(samples.map((s) => s.kind).sort()).toEqual(['secrets.DatabaseConnection', 'secrets.DatabaseCredentials', 'secrets.DatabaseRole',
      'secrets.DatabaseStaticCredentials', 'secrets.DatabaseStaticRole']);
    for (const s of samples) expect(s.code).toContain('converge emulator --postgres');
  });

  test.each(samples.map((s) => [s.kind, s.code]))('%s: applied, found in the database, destroyed', async (kind, code) => {
    const app = sampleApp(code);
    const env = shellWith(envFile, app);
    const address = env.DB_ADDRESS!;
    let r = await cliAsync(['apply', '--auto-approve'], env, app);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Apply complete: \d+ done, 0 failed/);

    // What each sample made, seen in the secrets service and in PostgreSQL itself.
    let issuedUser: { username: string; password: string } | undefined;
    if (kind === 'secrets.DatabaseRole') {
      const creds = await secretsApi(env, 'database/creds/app');
      expect(creds.status).toBe(200);
      expect(await canLogin(address, creds.body.data.username, creds.body.data.password)).toBe(true);
    } else if (kind === 'secrets.DatabaseStaticRole' || kind === 'secrets.DatabaseStaticCredentials') {
      const st = await secretsApi(env, 'database/static-creds/reporting');
      expect(st.body.data.username).toBe('reporting');
      expect(await canLogin(address, 'reporting', st.body.data.password)).toBe(true);
      if (kind === 'secrets.DatabaseStaticCredentials') {
        expect((await secretsApi(env, 'secret/data/reporting/db')).body.data.data).toEqual({ username: 'reporting', password: st.body.data.password });
      }
    } else if (kind === 'secrets.DatabaseCredentials') {
      issuedUser = (await secretsApi(env, 'secret/data/app/db')).body.data.data;
      expect(issuedUser!.username).toMatch(/^v-root-app-/);
      expect(await canLogin(address, issuedUser!.username, issuedUser!.password)).toBe(true);
    } else {
      expect((await secretsApi(env, 'database/config/app-db')).body.data).toMatchObject({ plugin_name: 'postgresql-database-plugin', allowed_roles: ['app'] });
      // rotateRootOnCreate: only the service knows vault_root's password now.
      expect(await canLogin(address, 'vault_root', env.DB_ROOT_PASSWORD!)).toBe(false);
    }
    // The admin password is read by converge from its environment: never in the app's output, state or the plan.
    const written = [...allFiles(path.join(app, 'cdktf.out')), ...allFiles(path.join(app, '.converge'))];
    expect(written.length).toBeGreaterThan(2);
    for (const f of written) expect({ file: f.file, has: f.text.includes(env.DB_ROOT_PASSWORD!) }).toEqual({ file: f.file, has: false });
    expect(r.stdout).not.toContain(env.DB_ROOT_PASSWORD);

    r = await cliAsync(['plan', '--detailed-exitcode'], env, app);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);

    r = await cliAsync(['destroy', '--auto-approve'], env, app);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await secretsApi(env, 'database/config/app-db')).status).toBe(404);
    // The credentials converge issued were revoked: their database user is gone.
    if (issuedUser) expect(await canLogin(address, issuedUser.username, issuedUser.password)).toBe(false);
    fs.rmSync(app, { recursive: true, force: true });
  });

  test('converge emulator stop also stops its PostgreSQL', async () => {
    const address = emulatorEnv.DB_ADDRESS;
    expect(await listening(address)).toBe(true);
    const r = await cliAsync(['emulator', 'stop', envFile], bare, dir);
    expect(r.status).toBe(0);
    expect(await listening(address)).toBe(false);
  });
});

describe('converge emulator --postgres --data-dir', () => {
  test('a restart brings back the same database: the stored connection still issues credentials', async () => {
    const dir = tempDir('converge-emu-pg-data-');
    fs.chmodSync(dir, 0o755); // as root, PostgreSQL runs as the postgres user: it must reach <data-dir>/postgres
    const dataDir = path.join(dir, 'data');
    const envFile = path.join(dir, 'emulator.env');
    const start = async () => {
      const r = await cliAsync(['emulator', '--postgres', ...ports, '--data-dir', dataDir, '--write-env', envFile, '--detach'], bare, dir);
      expect(r.stderr).not.toMatch(/Error/);
      expect(r.status).toBe(0);
      return parseEnvFile(fs.readFileSync(envFile, 'utf8'));
    };
    try {
      const first = await start();
      const app = sampleApp(samples.find((s) => s.kind === 'secrets.DatabaseRole')!.code);
      // Tokens come back with the data directory, but the APIs' ports (0) are new: source the new file each time.
      expect((await cliAsync(['apply', '--auto-approve'], shellWith(envFile, app), app)).status).toBe(0);
      expect((await cliAsync(['emulator', 'stop', envFile], bare, dir)).status).toBe(0);
      expect(await listening(first.DB_ADDRESS)).toBe(false);

      const second = await start();
      expect(second.DB_ADDRESS).toBe(first.DB_ADDRESS);
      expect(second.DB_ROOT_PASSWORD).toBe(first.DB_ROOT_PASSWORD);
      const env = shellWith(envFile, app);
      const creds = await secretsApi(env, 'database/creds/app');
      expect(creds.status).toBe(200);
      expect(await canLogin(second.DB_ADDRESS, creds.body.data.username, creds.body.data.password)).toBe(true);
      const r = await cliAsync(['plan', '--detailed-exitcode'], env, app);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect((await cliAsync(['destroy', '--auto-approve'], env, app)).status).toBe(0);
      fs.rmSync(app, { recursive: true, force: true });
    } finally {
      if (fs.existsSync(envFile)) await cliAsync(['emulator', 'stop', envFile], bare, dir);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('killed (SIGKILL), the emulator takes its PostgreSQL along, and the next start brings the database back', async () => {
    const dir = tempDir('converge-emu-pg-kill-');
    fs.chmodSync(dir, 0o755);
    const dataDir = path.join(dir, 'data');
    const envFile = path.join(dir, 'emulator.env');
    const args = ['emulator', '--postgres', ...ports, '--data-dir', dataDir, '--write-env', envFile, '--detach'];
    try {
      expect((await cliAsync(args, bare, dir)).status).toBe(0);
      const first = parseEnvFile(fs.readFileSync(envFile, 'utf8'));
      expect(await listening(first.DB_ADDRESS)).toBe(true);
      process.kill(Number(first.CONVERGE_EMULATOR_PID), 'SIGKILL');
      // No server outlives its emulator: it would hold the port and the data directory's lock.
      let up = true;
      for (let i = 0; i < 2000 && up; i++) { await new Promise((r) => setTimeout(r, 100)); up = await listening(first.DB_ADDRESS); }
      expect(up).toBe(false);

      const r = await cliAsync(args, bare, dir);
      expect(r.stderr).not.toMatch(/Error/);
      expect(r.status).toBe(0);
      const second = parseEnvFile(fs.readFileSync(envFile, 'utf8'));
      expect(second.DB_ADDRESS).toBe(first.DB_ADDRESS);
      expect(await canLogin(second.DB_ADDRESS, 'vault_root', second.DB_ROOT_PASSWORD)).toBe(true);
    } finally {
      if (fs.existsSync(envFile)) await cliAsync(['emulator', 'stop', envFile], bare, dir);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('killed (SIGKILL) without --data-dir, it leaves neither a server nor its temporary directory', async () => {
    const dir = tempDir('converge-emu-pg-kill-tmp-');
    const tmp = tempDir('converge-emu-pg-tmpdir-');
    fs.chmodSync(tmp, 0o1777); // as /tmp is: the server may run as the postgres user
    const envFile = path.join(dir, 'emulator.env');
    try {
      expect((await cliAsync(['emulator', '--postgres', ...ports, '--write-env', envFile, '--detach'], { ...bare, TMPDIR: tmp }, dir)).status).toBe(0);
      const env = parseEnvFile(fs.readFileSync(envFile, 'utf8'));
      expect(fs.readdirSync(tmp).filter((f) => f.startsWith('converge-pg-'))).toHaveLength(1);
      process.kill(Number(env.CONVERGE_EMULATOR_PID), 'SIGKILL');
      let left = 1;
      for (let i = 0; i < 2000 && left; i++) {
        await new Promise((r) => setTimeout(r, 100));
        left = fs.readdirSync(tmp).filter((f) => f.startsWith('converge-pg-')).length;
      }
      expect(left).toBe(0);
      expect(await listening(env.DB_ADDRESS)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  (process.getuid?.() === 0 ? test : test.skip)('as root, a data directory the postgres user cannot reach is refused, saying why (runs as root only)', async () => {
    const dir = tempDir('converge-emu-pg-root-'); // 0700, owned by root
    const r = await cliAsync(['emulator', '--postgres', ...ports, '--data-dir', path.join(dir, 'data'), '--write-env', path.join(dir, 'e.env')], bare, dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`as root, PostgreSQL runs as the postgres user, which cannot reach ${path.join(dir, 'data', 'postgres')}: ${dir} is not traversable by it`);
    expect(fs.existsSync(path.join(dir, 'e.env'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('--postgres-port without --postgres is refused, and nothing starts', async () => {
    const dir = tempDir('converge-emu-pg-bad-');
    const r = await cliAsync(['emulator', '--postgres-port', '5999', ...ports, '--write-env', path.join(dir, 'e.env')], bare, dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--postgres-port is the port of --postgres: add --postgres');
    expect(fs.existsSync(path.join(dir, 'e.env'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
