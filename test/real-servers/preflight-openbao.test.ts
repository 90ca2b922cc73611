import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import * as secrets from '../../lib/secrets';
import { cliAsync, CliResult, synthApp, tempDir } from '../support/harness';
import { startOpenBao, TestOpenBao } from '../support/openbao';
import { startPostgres, TestPostgres } from '../support/postgres';
import { describeWithTool, realTools } from '../support/real-tools';

jest.setTimeout(300_000);

// Issue 33 items 2 and 3 against a real OpenBao with a real PostgreSQL behind its database engine, with
// tokens made as a least-privilege token is (no `default` policy): the printed policy minus one capability
// fails the plan and the apply before anything is written, naming it; with the whole printed policy
// everything succeeds; a 403 names the capability and never blames a token the service accepts.
describeWithTool('BAO', 'preflight against a real OpenBao', () => {
  let pg: TestPostgres;
  let bao: TestOpenBao;
  let hostPart: string;
  const base = () => ({
    PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY,
    SECRETS_ADDR: bao.address, SECRETS_TOKEN_HEADER: 'X-Vault-Token', DB_ROOT: 'pf-root-pass',
  });

  beforeAll(async () => {
    [pg, bao] = await Promise.all([startPostgres(), startOpenBao(realTools().BAO!, { database: 'database', kv: 'kvc' })]);
    const u = new URL(pg.url);
    hostPart = `${u.host}${u.pathname}`;
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    await c.query('CREATE ROLE pf_root WITH LOGIN CREATEROLE PASSWORD \'pf-root-pass\'');
    await c.end();
  });
  afterAll(async () => { await Promise.all([bao?.stop(), pg?.stop()]); });

  /** Nine KV secrets, a tenth on `kvc` whose metadata is written after its data, a database connection and role. */
  const app = (stack: string) => synthApp((st: TerraformStack) => {
    for (let i = 0; i < 9; i++) new secrets.KvSecret(st, `s${i}`, { path: `${stack}/s${i}`, data: { n: String(i) } });
    new secrets.KvSecret(st, 'tenth', { mount: 'kvc', path: `${stack}/tenth`, data: { n: '10' }, maxVersions: 3 });
    const conn = new secrets.DatabaseConnection(st, 'pg', {
      name: `${stack}-db`, connectionUrl: `postgresql://{{username}}:{{password}}@${hostPart}`, username: 'pf_root',
      password: SecretValue.fromEnv('DB_ROOT'), allowedRoles: [`${stack}-app`],
    });
    new secrets.DatabaseRole(st, 'role', { name: `${stack}-app`, connection: conn, creationStatements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\''] });
  }, stack);
  const printedPolicy = async (dir: string) => {
    const r = await cliAsync(['policy', '--json', '--synth-dir', dir], base());
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout).secretsPolicy as string;
  };
  /** A token holding exactly `policy`, and not the `default` policy. */
  const tokenFor = async (name: string, policy: string) => {
    expect((await bao.api('PUT', `sys/policies/acl/${name}`, { policy })).status).toBe(204);
    const created = await bao.api('POST', 'auth/token/create', { policies: [name], no_default_policy: true });
    expect(created.body.auth.policies).toEqual([name]);
    return created.body.auth.client_token as string;
  };
  const withoutMetadataUpdate = (policy: string, stack: string) => {
    const line = `path "kvc/metadata/${stack}/tenth" { capabilities = ["read", "update", "delete"] }`;
    expect(policy).toContain(line);
    return policy.replace(line, `path "kvc/metadata/${stack}/tenth" { capabilities = ["read", "delete"] }`);
  };
  const stateDir = tempDir();
  const run = (args: string[], dir: string, token: string, stack: string) =>
    cliAsync([...args, '--synth-dir', dir], { ...base(), SECRETS_TOKEN: token, CONVERGE_DIR: path.join(stateDir, stack) });
  const present = async (stack: string) => {
    const found: string[] = [];
    for (const p of [...[...Array(9).keys()].map((i) => `secret/metadata/${stack}/s${i}`), `kvc/metadata/${stack}/tenth`,
      `database/config/${stack}-db`, `database/roles/${stack}-app`]) {
      if ((await bao.api('GET', p)).status === 200) found.push(p);
    }
    return found;
  };
  const all = (r: CliResult) => r.stdout + r.stderr;

  test('the printed policy minus "update" on a KV metadata path: plan and apply name it, and nothing is written', async () => {
    const dir = app('minus');
    const token = await tokenFor('pf-minus', withoutMetadataUpdate(await printedPolicy(dir), 'minus'));
    for (const args of [['plan'], ['apply', '--auto-approve']]) {
      const r = await run(args, dir, token, 'minus');
      expect({ args, status: r.status }).toEqual({ args, status: 1 });
      expect(r.stderr).toContain('the tokens lack 1 capability this plan needs; nothing was written');
      expect(r.stderr).toContain('the secrets token lacks "update" on "kvc/metadata/minus/tenth" (needed by minus/tenth; it holds ["delete","read"])');
    }
    expect(await present('minus')).toEqual([]);
  });

  test('--no-preflight: the 403 names the capability and what the token holds, never blaming the token', async () => {
    const dir = app('skip');
    const token = await tokenFor('pf-skip', withoutMetadataUpdate(await printedPolicy(dir), 'skip'));
    const r = await run(['apply', '--auto-approve', '--no-preflight'], dir, token, 'skip');
    expect(r.status).toBe(1);
    expect(all(r)).toContain('403: permission denied; the token needs "create" or "update" on "kvc/metadata/skip/tenth"; it holds ["delete","read"] there');
    expect(all(r)).not.toMatch(/invalid|expired|header the service/);
  });

  test('the whole printed policy: plan, apply, no-op plan and destroy succeed with nothing on stderr', async () => {
    const dir = app('full');
    const token = await tokenFor('pf-full', await printedPolicy(dir));
    for (const [args, want] of [[['plan', '--detailed-exitcode'], 2], [['apply', '--auto-approve'], 0], [['plan', '--detailed-exitcode'], 0], [['destroy', '--auto-approve'], 0]] as const) {
      const r = await run([...args], dir, token, 'full');
      expect({ args, status: r.status, stderr: r.stderr }).toEqual({ args, status: want, stderr: '' });
    }
    expect(await present('full')).toEqual([]);
  });

  test('a token OpenBao does not accept: the 403 says converge cannot tell, and names the header', async () => {
    const r = await run(['plan'], app('bogus'), 'not-a-token', 'bogus');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('permission denied');
    expect(r.stderr).toContain('converge cannot tell a missing capability from a token the service does not accept');
    expect(r.stderr).toContain('converge sent X-Vault-Token');
  });
});
