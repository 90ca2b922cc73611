import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { AgentPool } from '../../lib/platform/agent-pool/agent-pool';
import { Organization } from '../../lib/platform/organization/organization';
import { DatabaseConnection } from '../../lib/secrets/database/database-connection';
import { DatabaseRole } from '../../lib/secrets/database/database-role';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// `converge policy` prints the smallest secrets-service policy a stack needs; a token holding exactly
// it plans, applies and destroys the stack, and a token missing any one line of it fails with a 403
// that names the path and the capability.
describe('converge policy', () => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await startWorld({}, { DB_ROOT: 'db-root-pass' });
    // An existing secret the stack looks up (`KvSecret.fromPath`).
    expect((await secrets('POST', 'secret/data/shared/config', { data: { region: 'eu' } })).status).toBe(200);
  });
  afterAll(async () => { await world.stop(); });

  const secrets = async (method: string, p: string, body?: unknown) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/${p}`, {
      method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  /** A token holding only `policy` (and the built-in default). */
  const tokenFor = async (name: string, policy: string): Promise<string> => {
    expect((await secrets('PUT', `sys/policies/acl/${name}`, { policy })).status).toBe(204);
    return (await secrets('POST', 'auth/token/create', { policies: [name] })).body.auth.client_token;
  };

  const app = synthApp((st: TerraformStack) => {
    new KvSecret(st, 'db', { path: 'app/db', data: { user: 'app', password: SecretValue.fromEnv('DB_ROOT') } });
    new TotpKey(st, 'mfa', { name: 'ann', issuer: 'Acme', accountName: 'ann@acme.test' });
    const conn = new DatabaseConnection(st, 'pg', {
      name: 'app-db', connectionUrl: 'postgresql://{{username}}:{{password}}@127.0.0.1:1/app', username: 'root',
      password: SecretValue.fromEnv('DB_ROOT'), verifyConnection: false, allowedRoles: ['app'],
    });
    new DatabaseRole(st, 'role', { name: 'app', connection: conn, creationStatements: ['CREATE ROLE "{{name}}"'] });
    // A lookup is read at plan time: its reads are in the policy too.
    KvSecret.fromPath(st, 'shared', 'secret', 'shared/config');
  }, 'least');

  test('prints the policy, and the platform permissions of platform constructs', async () => {
    const r = await cliAsync(['policy', '--synth-dir', app], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('path "secret/metadata/app/db" { capabilities = ["read", "update", "delete"] }');
    expect(r.stdout).toContain('path "secret/data/app/db" { capabilities = ["create", "read", "update"] }');
    expect(r.stdout).toContain('path "database/roles/app" { capabilities = ["create", "read", "update", "delete"] }');
    const platformApp = synthApp((st: TerraformStack) => {
      new AgentPool(st, 'pool', { organization: Organization.fromName(st, 'acme', 'acme'), name: 'onprem' });
      AgentPool.fromName(st, 'other-pool', Organization.fromName(st, 'other', 'other'), 'shared');
    }, 'plat');
    const p = await cliAsync(['policy', '--synth-dir', platformApp], world.env);
    expect(p.stdout).toMatch(/pool \(platform\.AgentPool\): manage agent pools in organization "acme"/);
    // Lookups are read at plan time: their reads are part of the policy.
    expect(p.stdout).toMatch(/acme \(lookup:platform\.Organization\): read organization "acme"/);
    expect(p.stdout).toMatch(/other-pool \(lookup:platform\.AgentPool\): read the agent pools of organization "other"/);
  });

  test('exactly that policy plans, applies and destroys; without any one line, a clear 403', async () => {
    const printed = JSON.parse((await cliAsync(['policy', '--synth-dir', app, '--json'], world.env)).stdout);
    const lines: string[] = printed.secretsPolicy.split('\n');
    expect(lines.length).toBe(8);
    const runAll = async (token: string, dir: string) => {
      const env = { ...world.env, SECRETS_TOKEN: token, CONVERGE_DIR: dir };
      const results = [];
      for (const args of [['apply', '--auto-approve'], ['plan', '--detailed-exitcode'], ['destroy', '--auto-approve']]) {
        const r = await cliAsync([...args, '--synth-dir', app], env);
        results.push({ args: args[0], ...r });
        if (r.status === 1) break;
      }
      return results;
    };

    const full = await runAll(await tokenFor('least', printed.secretsPolicy), path.join(world.dir, 'full'));
    expect(full.map((r) => [r.args, r.status, r.stderr])).toEqual([['apply', 0, ''], ['plan', 0, ''], ['destroy', 0, '']]);

    for (const [i, line] of lines.entries()) {
      const policy = lines.filter((_, j) => j !== i).join('\n');
      const dir = path.join(world.dir, `less-${i}`);
      const results = await runAll(await tokenFor(`less-${i}`, policy), dir);
      const failed = results.find((r) => r.status === 1);
      const removedPath = /^path "([^"]+)"/.exec(line)![1];
      if (removedPath === 'sys/capabilities-self') {
        // The preflight's own path: the default policy grants it too, so nothing is refused.
        expect(results.map((r) => r.status)).toEqual([0, 0, 0]);
        continue;
      }
      expect({ line, failed: failed?.args }).toEqual({ line, failed: expect.any(String) });
      // Refused by the preflight before anything is written, or by a 403 where the plan itself reads the path.
      expect(failed!.stdout + failed!.stderr).toMatch(/403: permission denied|the secrets token lacks "/);
      expect(failed!.stdout + failed!.stderr).toContain(`" on "${removedPath}"`);
      // Clean up with the root token, for the next trial.
      const cleanup = await cliAsync(['destroy', '--auto-approve', '--synth-dir', app], { ...world.env, CONVERGE_DIR: dir });
      expect(cleanup.status).toBe(0);
    }
  });
});
