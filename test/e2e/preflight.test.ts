import { TerraformStack } from 'cdktf';
import * as path from 'path';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, CliResult, startWorld, synthApp, TestWorld } from '../support/harness';


// Issue 33 items 2 and 3 through the real CLI against the emulator: before anything is written, the plan
// asks the secrets service what its token may do (sys/capabilities-self, one request) and fails naming
// each capability it lacks; a 403 names the capability and blames the token only when the service says so.
describe('preflight: a plan that knows the token will be refused', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const secrets = async (method: string, p: string, body?: unknown, token = world.env.SECRETS_TOKEN!) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/${p}`, {
      method, headers: { 'x-secrets-token': token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  /** A token holding only `policy`: no `default` policy, as a least-privilege token is made. */
  const tokenFor = async (name: string, policy: string): Promise<string> => {
    expect((await secrets('PUT', `sys/policies/acl/${name}`, { policy })).status).toBe(204);
    return (await secrets('POST', 'auth/token/create', { policies: [name], no_default_policy: true })).body.auth.client_token;
  };
  /** Ten KV secrets; the last one's metadata is written after its data (maxVersions is not the default). */
  const app = (stack: string) => synthApp((st: TerraformStack) => {
    for (let i = 0; i < 9; i++) new KvSecret(st, `s${i}`, { path: `${stack}/s${i}`, data: { n: String(i) } });
    new KvSecret(st, 'tenth', { path: `${stack}/tenth`, data: { n: '10' }, maxVersions: 3 });
  }, stack);
  const printedPolicy = async (dir: string) => JSON.parse((await cliAsync(['policy', '--json', '--synth-dir', dir], world.env)).stdout).secretsPolicy as string;
  const withoutMetadataUpdate = (policy: string, stack: string) => policy.replace(
    `path "secret/metadata/${stack}/tenth" { capabilities = ["read", "update", "delete"] }`,
    `path "secret/metadata/${stack}/tenth" { capabilities = ["read", "delete"] }`);
  const run = (args: string[], dir: string, env: NodeJS.ProcessEnv, stateDir: string) =>
    cliAsync([...args, '--synth-dir', dir], { ...env, CONVERGE_DIR: path.join(world.dir, stateDir) });
  const written = async (stack: string) => {
    const found: string[] = [];
    for (const n of [...Array(9).keys()].map((i) => `s${i}`).concat('tenth')) {
      if ((await secrets('GET', `secret/metadata/${stack}/${n}`)).status === 200) found.push(n);
    }
    return found;
  };
  const all = (r: CliResult) => r.stdout + r.stderr;

  test('converge policy prints the path the preflight asks', async () => {
    expect(await printedPolicy(app('pp'))).toContain('path "sys/capabilities-self" { capabilities = ["update"] }');
  });

  test('the emulator answers sys/capabilities-self as OpenBao does', async () => {
    const token = await tokenFor('caps', 'path "secret/data/a/*" { capabilities = ["create", "read"] }\npath "sys/capabilities-self" { capabilities = ["update"] }');
    const r = await secrets('POST', 'sys/capabilities-self', { paths: ['secret/data/a/b', 'secret/metadata/a/b'] }, token);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ 'secret/data/a/b': ['create', 'read'], 'secret/metadata/a/b': ['deny'] });
    expect(r.body['secret/data/a/b']).toEqual(['create', 'read']);
    const root = await secrets('POST', 'sys/capabilities-self', { paths: ['secret/data/a/b'] });
    expect(root.body.data).toEqual({ 'secret/data/a/b': ['root'], capabilities: ['root'] });
    // A token without the default policy and without the path is refused it, as on OpenBao.
    const bare = await tokenFor('bare', 'path "secret/data/a/*" { capabilities = ["read"] }');
    expect((await secrets('POST', 'sys/capabilities-self', { paths: ['secret/data/a/b'] }, bare)).status).toBe(403);
  });

  test('the printed policy minus "update" on one metadata path: plan and apply fail naming it, nothing is written', async () => {
    const dir = app('minus');
    const token = await tokenFor('minus', withoutMetadataUpdate(await printedPolicy(dir), 'minus'));
    const env = { ...world.env, SECRETS_TOKEN: token };
    const plan = await run(['plan'], dir, env, 'minus');
    expect(plan.status).toBe(1);
    expect(plan.stderr).toContain('the secrets token lacks "update" on "secret/metadata/minus/tenth" (needed by minus/tenth; it holds ["delete","read"])');
    expect(plan.stderr).toContain('nothing was written');
    const apply = await run(['apply', '--auto-approve'], dir, env, 'minus');
    expect(apply.status).toBe(1);
    expect(apply.stderr).toContain('lacks "update" on "secret/metadata/minus/tenth"');
    expect(await written('minus')).toEqual([]);
    // The check named only what is missing.
    expect(apply.stderr.match(/lacks "/g)).toHaveLength(1);
  });

  test('--no-preflight skips it: the 403 names the capability and does not blame a valid token', async () => {
    const dir = app('skip');
    const token = await tokenFor('skip', withoutMetadataUpdate(await printedPolicy(dir), 'skip'));
    const apply = await run(['apply', '--auto-approve', '--no-preflight'], dir, { ...world.env, SECRETS_TOKEN: token }, 'skip');
    expect(apply.status).toBe(1);
    expect(all(apply)).toContain('403: permission denied');
    expect(all(apply)).toContain('the token needs "create" or "update" on "secret/metadata/skip/tenth"; it holds ["delete","read"] there');
    expect(all(apply)).not.toMatch(/invalid|expired|header/);
    expect((await written('skip')).length).toBe(10);
  });

  test('with the full printed policy: plan, apply, no-op plan and destroy succeed, one check per run that writes', async () => {
    const dir = app('full');
    const token = await tokenFor('full', await printedPolicy(dir));
    const env = { ...world.env, SECRETS_TOKEN: token };
    for (const [args, want] of [[['plan', '--detailed-exitcode'], 2], [['apply', '--auto-approve'], 0], [['plan', '--detailed-exitcode'], 0], [['destroy', '--auto-approve'], 0]] as const) {
      const r = await run([...args], dir, env, 'full');
      expect({ args, status: r.status, stderr: r.stderr }).toEqual({ args, status: want, stderr: '' });
    }
    expect(await written('full')).toEqual([]);
  });

  test('a token the service will not tell its capabilities: the plan says it could not check, and goes on', async () => {
    const dir = app('nocheck');
    const policy = (await printedPolicy(dir)).split('\n').filter((l) => !l.includes('sys/capabilities-self')).join('\n');
    const r = await run(['apply', '--auto-approve'], dir, { ...world.env, SECRETS_TOKEN: await tokenFor('nocheck', policy) }, 'nocheck');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('could not check what the token may do on the secrets API (SECRETS_ADDR): sys/capabilities-self answered 403 (permission denied): ' +
      'grant path "sys/capabilities-self" { capabilities = ["update"] }');
    expect((await written('nocheck')).length).toBe(10);
  });

  test('a token the service does not accept: the 403 says it cannot tell, and names the header', async () => {
    const r = await run(['plan'], app('bogus'), { ...world.env, SECRETS_TOKEN: 'not-a-token' }, 'bogus');
    expect(r.status).toBe(1);
    // The objects are read in parallel: whichever refusal comes first is reported.
    expect(r.stderr).toMatch(/the token needs "(read|list)" on "secret\/metadata\/bogus\/?\w*"/);
    expect(r.stderr).toContain('converge cannot tell a missing capability from a token the service does not accept');
    expect(r.stderr).toContain('converge sent X-Secrets-Token');
  });

  test('platform: a team token without the VCS permission fails the plan naming it, from the organization\'s permissions', async () => {
    const admin = async (method: string, p: string, body?: unknown) => {
      const r = await fetch(`${world.env.PLATFORM_ADDRESS}${p}`, {
        method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' }, body: JSON.stringify(body),
      });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : undefined };
    };
    expect((await admin('POST', '/api/v2/organizations', { data: { type: 'organizations', attributes: { name: 'pf-org', email: 'a@x.io' } } })).status).toBe(201);
    expect([201, 422]).toContain((await admin('POST', '/__admin/users', { username: 'pf-team', email: 'pf-team@x.io' })).status);
    const teamToken = async (permissions: string[]) => (await admin('POST', '/__admin/tokens', { user: 'pf-team', kind: 'team', organization: 'pf-org', permissions })).body.token as string;
    const dir = synthApp((st: TerraformStack) => {
      new OAuthClient(st, 'vcs', { organization: Organization.fromName(st, 'org', 'pf-org'), name: 'main', serviceProvider: VcsServiceProvider.PROVIDER_A,
        httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('VCS_TOKEN') });
    }, 'pf-platform');
    const env = { ...world.env, VCS_TOKEN: 'vcs-secret' };
    const refused = await run(['apply', '--auto-approve'], dir, { ...env, PLATFORM_TOKEN: await teamToken([]) }, 'pf-platform');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('the platform token lacks "can-update-oauth" in organization "pf-org" (needed by pf-platform/vcs; its permissions say false)');
    expect((await admin('GET', '/api/v2/organizations/pf-org/oauth-clients')).body.data).toEqual([]);
    const allowed = await run(['apply', '--auto-approve'], dir, { ...env, PLATFORM_TOKEN: await teamToken(['manage-vcs']) }, 'pf-platform');
    expect({ status: allowed.status, stderr: allowed.stderr }).toEqual({ status: 0, stderr: '' });
    expect((await admin('GET', '/api/v2/organizations/pf-org/oauth-clients')).body.data).toHaveLength(1);
  });

  test('mesh: the emulator serves a policy\'s rules to a management token only; a token that may not read its policy is not checked', async () => {
    const meshCall = async (method: string, p: string, body?: unknown, token = world.env.MESH_HTTP_TOKEN!) => {
      const r = await fetch(`${world.env.MESH_HTTP_ADDR}${p}`, { method, headers: { 'x-mesh-token': token }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await r.text();
      return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
    };
    expect((await meshCall('POST', '/__admin/policies', { name: 'pf-web', serviceWrite: ['pf-web'], serviceRead: ['*'] })).status).toBeLessThan(300);
    const rules = await meshCall('GET', '/v1/acl/policy/name/pf-web');
    expect(rules).toEqual({ status: 200, body: expect.objectContaining({ Name: 'pf-web', Rules: 'service "pf-web" { policy = "write" }\nservice_prefix "" { policy = "read" }' }) });
    const token = (await meshCall('POST', '/__admin/tokens', { policies: ['pf-web'] })).body.secretId as string;
    expect((await meshCall('GET', '/v1/acl/policy/name/pf-web', undefined, token)).status).toBe(403);
    const dir = synthApp((st: TerraformStack) => { new ServiceDefaults(st, 'web', { name: 'pf-web', protocol: MeshProtocol.HTTP }); }, 'pf-mesh');
    const r = await run(['apply', '--auto-approve'], dir, { ...world.env, MESH_HTTP_TOKEN: token }, 'pf-mesh');
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^Preflight of stack pf-mesh: could not check what the token may do on the mesh API \(MESH_HTTP_ADDR\): its policy "pf-web" answered 403 .*acl:read.*\n$/);
    // The management token holds global-management: one request, nothing to warn about.
    expect((await run(['destroy', '--auto-approve'], dir, world.env, 'pf-mesh')).stderr).toBe('');
  });
});
