import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import * as secrets from '../../lib/secrets';
import { cliAsync, CliResult, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';
import { startOpenBao, TestOpenBao } from '../support/openbao';
import { startPostgres, TestPostgres } from '../support/postgres';
import { describeWithTool, realTools } from '../support/real-tools';

jest.setTimeout(300_000);

// The same stacks, through the real CLI, against the emulator and against a real OpenBao 2.6 (dev
// server) with a real PostgreSQL behind both database engines: the same plans and the same outcomes
// through plan, apply, no-op plan, update, drift made outside converge, refresh, import, destroy, and
// a token holding exactly the policy `converge policy` printed.
// Emulator-only (OpenBao has no such engines under the spec's names): the directory, platform-token,
// mesh-token and push-MFA kinds; their behaviour is covered by the emulator tests alone.
describeWithTool('BAO', 'the same stacks against the emulator and a real OpenBao', () => {
  let pg: TestPostgres;
  let bao: TestOpenBao;
  let world: TestWorld;
  let hostPart: string;

  beforeAll(async () => {
    [pg, bao, world] = await Promise.all([
      startPostgres(),
      startOpenBao(realTools().BAO!, { totp: 'totp', database: 'database', kv: 'kvc' }),
      startWorld({}, { DB_ROOT: 'real-root-pass' }),
    ]);
    const u = new URL(pg.url);
    hostPart = `${u.host}${u.pathname}`;
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    await c.query('CREATE ROLE real_root WITH LOGIN CREATEROLE PASSWORD \'real-root-pass\'');
    await c.query('CREATE ROLE real_report WITH LOGIN PASSWORD \'report-pass\'; GRANT real_report TO real_root WITH ADMIN OPTION');
    await c.end();
    // A KV version 2 mount that requires check-and-set on metadata writes, on both.
    expect((await bao.api('POST', 'kvc/config', { metadata_cas_required: true })).status).toBe(204);
    expect((await emu('POST', '/__admin/mounts/kvc', { type: 'kv' })).status).toBe(204);
    expect((await emu('POST', '/v1/kvc/config', { metadata_cas_required: true })).status).toBe(204);
  });
  afterAll(async () => {
    await Promise.all([world?.stop(), bao?.stop(), pg?.stop()]);
  });

  const emu = (method: string, p: string, body?: unknown, token = world.env.SECRETS_TOKEN!) => fetch(`${world.env.SECRETS_ADDR}${p}`, {
    method, headers: { 'x-secrets-token': token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });

  interface Target {
    readonly name: string;
    env: NodeJS.ProcessEnv;
    api(method: string, p: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
  }
  const targets = (): Target[] => [
    {
      name: 'emulator', env: { ...world.env, CONVERGE_DIR: path.join(tempDir(), '.converge') },
      api: async (method, p, body, token) => {
        const r = await emu(method, `/v1/${p}`, body, token);
        const text = await r.text();
        return { status: r.status, body: text ? JSON.parse(text) : undefined };
      },
    },
    {
      name: 'openbao', env: {
        ...world.env, SECRETS_ADDR: bao.address, SECRETS_TOKEN: bao.rootToken, SECRETS_TOKEN_HEADER: 'X-Vault-Token',
        CONVERGE_DIR: path.join(tempDir(), '.converge'),
      },
      api: (method, p, body, token) => bao.api(method, p, body, token),
    },
  ];

  /** The stack: KV (one on the metadata-cas mount), TOTP, a database connection, a dynamic and a static role, their credentials. */
  const app = (stackName: string, v: { dataVersion: string; maxVersions: number; ttl: string }) => synthApp((st: TerraformStack) => {
    new secrets.KvSecret(st, 'config', { path: `${stackName}/config`, data: { greeting: v.dataVersion } });
    new secrets.KvSecret(st, 'cas', { mount: 'kvc', path: `${stackName}/cas`, data: { a: '1' }, maxVersions: v.maxVersions, customMetadata: { team: 'ops' } });
    new secrets.TotpKey(st, 'mfa', { name: `${stackName}-ann`, issuer: 'Acme Corp', accountName: 'ann@acme.test' });
    const conn = new secrets.DatabaseConnection(st, 'pg', {
      name: `${stackName}-db`, connectionUrl: `postgresql://{{username}}:{{password}}@${hostPart}`, username: 'real_root',
      password: SecretValue.fromEnv('DB_ROOT'), allowedRoles: [`${stackName}-app`, `${stackName}-report`],
    });
    const role = new secrets.DatabaseRole(st, 'app-role', {
      name: `${stackName}-app`, connection: conn, defaultTtl: v.ttl, maxTtl: '24h',
      creationStatements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
    });
    const staticRole = new secrets.DatabaseStaticRole(st, 'report-role', {
      name: `${stackName}-report`, connection: conn, username: 'real_report', rotationPeriod: '24h',
    });
    const stat = new secrets.DatabaseStaticCredentials(st, 'report-creds', { role: staticRole });
    const dyn = new secrets.DatabaseCredentials(st, 'app-creds', { role });
    new secrets.KvSecret(st, 'derived', {
      path: `${stackName}/derived`,
      data: { lastRotation: stat.lastServiceRotation, reportUser: stat.username, appUserIssued: dyn.username },
    });
  }, stackName);

  /** Plan and apply output without what differs per run: progress lines (their order is parallel), request counts, lease ids. */
  const normal = (r: CliResult) => `${r.stdout}\n${r.stderr}`
    .replace(/\d+ requests?, \d+ retr(y|ies)/g, 'N requests')
    .replace(/(\blease [a-z][\w-]*(?:\/[\w-]+)*\/)[A-Za-z0-9.]+/g, '$1LEASE')
    .split('\n').filter((l) => !/^\s*(✓ |\S+: \w+…$)/.test(l)).join('\n').trim();

  const run = async (t: Target, args: string[], dir: string, env: NodeJS.ProcessEnv = t.env) => cliAsync([...args, '--synth-dir', dir], env);

  test('plan, apply, no-op plan, update, drift, refresh, import, destroy: the same plans and outcomes', async () => {
    const transcripts: Record<string, string[]> = {};
    for (const t of targets()) {
      const log: string[] = (transcripts[t.name] = []);
      const step = async (label: string, args: string[], dir: string, want: number) => {
        const r = await run(t, args, dir);
        if (r.status !== want) throw new Error(`${t.name}: ${label} exited ${r.status}, expected ${want}:\n${r.stdout}\n${r.stderr}`);
        log.push(`## ${label}\n${normal(r)}`);
        return r;
      };
      const v1 = app('real', { dataVersion: 'v1', maxVersions: 5, ttl: '1h' });
      await step('plan', ['plan', '--detailed-exitcode'], v1, 2);
      await step('apply', ['apply', '--auto-approve'], v1, 0);
      await step('no-op plan', ['plan', '--detailed-exitcode'], v1, 0);

      // The static credentials' last rotation (OpenBao: last_vault_rotation) reached the KV secret.
      const derived = (await t.api('GET', 'secret/data/real/derived')).body.data.data;
      expect(derived.lastRotation).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(derived.reportUser).toBe('real_report');
      expect(derived.appUserIssued).toMatch(/^v-/);
      const meta = (await t.api('GET', 'kvc/metadata/real/cas')).body.data;
      expect(meta).toMatchObject({ max_versions: 5, custom_metadata: { team: 'ops' }, current_metadata_version: 1 });

      const v2 = app('real', { dataVersion: 'v2', maxVersions: 7, ttl: '2h' });
      await step('update plan', ['plan', '--detailed-exitcode'], v2, 2);
      await step('update', ['apply', '--auto-approve'], v2, 0);
      await step('no-op plan after update', ['plan', '--detailed-exitcode'], v2, 0);
      expect((await t.api('GET', 'kvc/metadata/real/cas')).body.data.max_versions).toBe(7);
      expect((await t.api('GET', 'database/roles/real-app')).body.data.default_ttl).toBe(7200);

      // Drift made outside converge: shown by plan and refresh, converged back by apply.
      expect((await t.api('POST', 'secret/data/real/config', { data: { greeting: 'changed by hand' } })).status).toBe(200);
      expect((await t.api('POST', 'database/roles/real-app', {
        db_name: 'real-db', default_ttl: 600, max_ttl: 86400,
        creation_statements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
      })).status).toBe(204);
      await step('drift plan', ['plan', '--detailed-exitcode'], v2, 2);
      await step('refresh', ['refresh'], v2, 0);
      await step('apply after drift', ['apply', '--auto-approve'], v2, 0);
      await step('no-op plan after drift', ['plan', '--detailed-exitcode'], v2, 0);
      expect((await t.api('GET', 'secret/data/real/config')).body.data.data.greeting).toBe('v2');

      // Import: a key made outside converge taken under management, then a no-op plan.
      expect((await t.api('POST', 'secret/data/outside/key', { data: { greeting: 'v2' } })).status).toBe(200);
      const withImport = synthApp((st: TerraformStack) => {
        new secrets.KvSecret(st, 'adopted', { path: 'outside/key', data: { greeting: 'v2' } });
      }, 'imported');
      await step('import', ['import', 'adopted', 'secret/outside/key'], withImport, 0);
      await step('no-op plan after import', ['plan', '--detailed-exitcode'], withImport, 0);

      await step('destroy', ['destroy', '--auto-approve'], v2, 0);
      for (const p of ['secret/metadata/real/config', 'kvc/metadata/real/cas', 'totp/keys/real-ann', 'database/config/real-db', 'database/roles/real-app', 'database/static-roles/real-report']) {
        expect([p, (await t.api('GET', p)).status]).toEqual([p, 404]);
      }
    }
    expect(transcripts.openbao).toEqual(transcripts.emulator);
  });

  test('a token holding exactly the printed policy plans, applies and destroys, on both', async () => {
    const results: Record<string, string[]> = {};
    for (const t of targets()) {
      const dir = app('least', { dataVersion: 'v1', maxVersions: 5, ttl: '1h' });
      const printed = await run(t, ['policy', '--json'], dir);
      expect(printed.stderr).toBe('');
      const policy = JSON.parse(printed.stdout).secretsPolicy as string;
      expect((await t.api('PUT', 'sys/policies/acl/converge-least', { policy })).status).toBe(204);
      const created = await t.api('POST', 'auth/token/create', { policies: ['converge-least'] });
      const env = { ...t.env, SECRETS_TOKEN: created.body.auth.client_token };
      const out: string[] = (results[t.name] = []);
      for (const args of [['apply', '--auto-approve'], ['plan', '--detailed-exitcode'], ['destroy', '--auto-approve']]) {
        const r = await run(t, args, dir, env);
        if (r.status !== 0) throw new Error(`${t.name}: ${args[0]} with the printed policy exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
        out.push(normal(r));
      }
    }
    expect(results.openbao).toEqual(results.emulator);
  });
});

