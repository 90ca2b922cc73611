import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { RemovalPolicy } from '../../lib/core/constructs/removal-policy';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { PlatformState } from '../../lib/platform/emulator/state';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { MeshTokenConfig } from '../../lib/secrets/mesh-token/mesh-token-config';
import { MeshTokenCredentials } from '../../lib/secrets/mesh-token/mesh-token-credentials';
import { MeshTokenRole } from '../../lib/secrets/mesh-token/mesh-token-role';
import { PlatformTokenConfig } from '../../lib/secrets/platform-token/platform-token-config';
import { PlatformTokenCredentials } from '../../lib/secrets/platform-token/platform-token-credentials';
import { PlatformTokenRole } from '../../lib/secrets/platform-token/platform-token-role';
import { allFiles, CliResult, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// The credential data sources of the token engines, end to end through the real CLI against the
// emulator: a generated token feeds another construct (stored in a KvSecret) as a secret; a leased one
// is kept from state by the plans after an apply (nothing new is minted, the plan is a no-op) until its
// role changes; an unleased one (organization role) is read again, the same token, until rotated. The
// token never appears in a file converge wrote nor in anything it printed.

describe('token credentials through the CLI', () => {
  let world: TestWorld;
  const printed: CliResult[] = [];
  const synthDirs: string[] = [];
  const run = async (args: string[]) => {
    const r = await cliAsync(args, world.env);
    printed.push(r);
    return r;
  };
  const synth = (stack: string, build: (st: TerraformStack) => void) => {
    const dir = synthApp(build, stack);
    synthDirs.push(dir);
    return dir;
  };
  const secrets = async (method: string, path: string) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/${path}`, { method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const meshTokens = async () => {
    const r = await fetch(`${world.env.MESH_HTTP_ADDR}/__admin/tokens`, { headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! } });
    return (await r.json()) as { accessorId: string; description?: string }[];
  };
  const minted = async () => (await meshTokens()).filter((t) => /role web/.test(t.description ?? '')).length;
  const platformTokens = () => Object.keys((world.emulator.apis.platform.snapshot() as PlatformState).tokens).length;
  const stored = async (path: string) => (await secrets('GET', `secret/data/${path}`)).body?.data?.data as Record<string, string>;

  /** No file converge wrote, no synth output and nothing it printed holds the value (outputs shown on request aside). */
  const expectNowhere = (value: string) => {
    expect(value.length).toBeGreaterThan(8);
    for (const { file, text } of [...allFiles(world.dir), ...synthDirs.flatMap((d) => allFiles(d))]) expect({ file, leaks: text.includes(value) }).toEqual({ file, leaks: false });
    for (const r of printed) expect(`${r.stdout}\n${r.stderr}`).not.toContain(value);
  };

  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world?.stop(); });

  const meshApp = (ttl: string) => synth('mesh-tokens', (st) => {
    const config = new MeshTokenConfig(st, 'mesh', { address: new URL(world.env.MESH_HTTP_ADDR!).host, token: SecretValue.fromEnv('MESH_HTTP_TOKEN') });
    const role = new MeshTokenRole(st, 'web-role', { name: 'web', serviceIdentities: ['web:dc1'], ttl });
    const creds = new MeshTokenCredentials(st, 'web-token', { role });
    creds.node.addDependency(config);
    new KvSecret(st, 'stored', { path: 'tokens/web', data: { token: creds.token, accessor: creds.accessor } });
  });

  test('a mesh token: stored in a KvSecret as a secret, kept while its lease is good, new when its role changes', async () => {
    const v1 = meshApp('1h');
    // The role does not exist yet: the token is made during the apply, after it (nothing at plan time).
    let r = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']);
    expect(r.status).toBe(2);
    expect(await minted()).toBe(0);
    r = await run(['apply', '--synth-dir', v1, '--auto-approve']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(await minted()).toBe(1);
    const first = await stored('tokens/web');
    expect((await meshTokens()).map((t) => t.accessorId)).toContain(first.accessor);
    // The stored token is a live mesh token.
    const chain = await fetch(`${world.env.MESH_HTTP_ADDR}/v1/discovery-chain/web`, { headers: { 'x-mesh-token': first.token } });
    expect(chain.status).toBe(200);

    // The next plans keep the leased token: nothing minted, no change; an apply of that plan neither.
    r = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']);
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);
    r = await run(['apply', '--synth-dir', v1, '--auto-approve']);
    expect(r.status).toBe(0);
    expect(await minted()).toBe(1);
    expect(await stored('tokens/web')).toEqual(first);

    // Outputs: masked, shown on request.
    r = await run(['output', '--json']);
    expect(JSON.parse(r.stdout)['web-token']).toMatchObject({ token: '(sensitive)', accessor: first.accessor, leaseDuration: 3600 });
    const shown = await cliAsync(['output', '--json', '--show-sensitive'], world.env);
    expect(JSON.parse(shown.stdout)['web-token'].token).toBe(first.token);

    // The role changes: the token is made again during the apply, and the KvSecret follows.
    const v2 = meshApp('2h');
    r = await run(['plan', '--synth-dir', v2, '--detailed-exitcode']);
    expect(r.status).toBe(2);
    expect(await minted()).toBe(1);
    r = await run(['apply', '--synth-dir', v2, '--auto-approve']);
    expect(r.status).toBe(0);
    // The new token replaces the first: once the KvSecret holds it, the first token's lease is revoked (issue 31 item 3),
    // which deletes that token from the mesh. One live token of the role, the new one.
    const second = await stored('tokens/web');
    expect(second.token).not.toBe(first.token);
    expect(await minted()).toBe(1);
    const live = (await meshTokens()).map((t) => t.accessorId);
    expect(live).toContain(second.accessor);
    expect(live).not.toContain(first.accessor);
    r = await run(['plan', '--synth-dir', v2, '--detailed-exitcode']);
    expect(r.status).toBe(0);
    expect(await minted()).toBe(1);

    expectNowhere(first.token);
    expectNowhere(second.token);
  });

  test('platform tokens: a user token kept under its lease; an organization token read again, the same until rotated', async () => {
    const app = synth('platform-tokens', (st) => {
      const org = new Organization(st, 'org', { name: 'tok-org', email: 'ops@tok.io', removalPolicy: RemovalPolicy.DESTROY });
      const config = new PlatformTokenConfig(st, 'platform', { address: world.env.PLATFORM_ADDRESS, token: SecretValue.fromEnv('PLATFORM_TOKEN') });
      const orgRole = new PlatformTokenRole(st, 'org-role', { name: 'ci', organization: 'tok-org' });
      const userRole = new PlatformTokenRole(st, 'user-role', { name: 'me', userId: 'admin', ttl: '1h' });
      const orgCreds = new PlatformTokenCredentials(st, 'org-token', { role: orgRole });
      const userCreds = new PlatformTokenCredentials(st, 'user-token', { role: userRole });
      for (const c of [orgCreds, userCreds]) c.node.addDependency(config, org);
      new KvSecret(st, 'platform-tokens', { path: 'tokens/platform', data: { org: orgCreds.token, user: userCreds.token, org_id: orgCreds.tokenId } });
    });
    let r = await run(['apply', '--synth-dir', app, '--auto-approve']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const first = await stored('tokens/platform');
    expect(first.org).toMatch(/^emu\./);
    expect(first.user).toMatch(/^emu\./);
    const tokens = platformTokens();

    // Nothing minted by the next plan and apply: the user token is kept, the organization token read again (the same).
    r = await run(['plan', '--synth-dir', app, '--detailed-exitcode']);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(/user-token/);
    r = await run(['apply', '--synth-dir', app, '--auto-approve']);
    expect(r.status).toBe(0);
    expect(platformTokens()).toBe(tokens);
    expect(await stored('tokens/platform')).toEqual(first);

    // A rotation outside converge: the organization token read next is the new one, and reaches the KvSecret.
    expect((await secrets('POST', 'platform/rotate-role/ci')).status).toBe(204);
    // Saved, as CI does between plan and apply: the token the plan read is not in the plan file (the hygiene check below reads it).
    r = await run(['plan', '--synth-dir', app, '--detailed-exitcode', '--out', path.join(world.dir, 'rotated.plan')]);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/platform-tokens \(secrets\.KvSecret\)/);
    r = await run(['apply', '--synth-dir', app, '--auto-approve']);
    expect(r.status).toBe(0);
    const rotated = await stored('tokens/platform');
    expect(rotated.org).not.toBe(first.org);
    expect(rotated.user).toBe(first.user);

    for (const t of [first.org, first.user, rotated.org]) expectNowhere(t);
  });

  test('credentials of a role looked up by name; an absent role fails the plan, naming the construct', async () => {
    const app = synth('lookups', (st) => {
      const role = MeshTokenRole.fromName(st, 'existing-role', 'mesh', 'web');
      const creds = new MeshTokenCredentials(st, 'looked-up-token', { role });
      new KvSecret(st, 'looked-up', { path: 'tokens/looked-up', data: { token: creds.token } });
    });
    const before = await minted();
    let r = await run(['apply', '--synth-dir', app, '--auto-approve']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(await minted()).toBe(before + 1);
    expect((await stored('tokens/looked-up')).token).toMatch(/\S{16,}/);
    expect((await secrets('GET', 'mesh/roles/web')).status).toBe(200);

    const absent = synth('absent', (st) => {
      const role = PlatformTokenRole.fromName(st, 'missing-role', 'platform', 'no-such-role');
      new PlatformTokenCredentials(st, 'missing-token', { role });
    });
    r = await run(['plan', '--synth-dir', absent]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/missing-role: secrets\.PlatformTokenRole "platform\/role\/no-such-role" does not exist/);
    expectNowhere((await stored('tokens/looked-up')).token);
  });
});
