import { SecretValue } from '../../lib';
import { Organization } from '../../lib/platform/organization/organization';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { MeshTokenRole } from '../../lib/secrets/mesh-token/mesh-token-role';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// A plan a Terraform user reads at a glance (issue 34 item 3): a create lists only what is set, a list
// shows each item added or removed, an object deleted outside converge says so in one line, and the
// summary line stands apart.
describe('a plan read at a glance', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld({}, { GLANCE_TOKEN: 'tok-glance-91d2' }); });
  afterAll(async () => { await world.stop(); });

  const app = (policies: string[]) => synthApp((stack) => {
    const org = new Organization(stack, 'org', { name: 'glance', email: 'ops@glance.io' });
    new OAuthClient(stack, 'vcs', {
      organization: org, serviceProvider: VcsServiceProvider.PROVIDER_A, httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com',
      oauthToken: SecretValue.fromEnv('GLANCE_TOKEN'),
    });
    new MeshTokenRole(stack, 'role', { name: 'glance-role', meshPolicies: policies });
    new KvSecret(stack, 'kv', { path: 'glance/kv', data: { a: 'b' } });
  }, 'glance');

  test('a create shows no unset field; a list change marks each item; a deletion outside converge is one line', async () => {
    const first = app(['ops', 'web']);
    const plan = await cliAsync(['plan', '--synth-dir', first], world.env);
    expect(plan.status).toBe(0);
    expect(plan.stdout).toMatch(/\+ oauthToken = \(sensitive\)/);
    expect(plan.stdout).toMatch(/\+ httpUrl = "https:\/\/vcs\.example\.com"/);
    // Unset: nothing to show (Terraform shows no null attribute of a new resource either).
    expect(plan.stdout).not.toMatch(/ = null\b/);
    expect(plan.stdout).not.toMatch(/ = ""/);
    expect(plan.stdout).not.toMatch(/ = \[\]/);
    expect(plan.stdout).not.toMatch(/privateKey|\+ secret = /);
    expect(plan.stdout).not.toContain('tok-glance-91d2');
    expect(plan.stdout).toMatch(/\n\nPlan: 4 to add/);

    expect((await cliAsync(['apply', '--synth-dir', first, '--auto-approve'], world.env)).status).toBe(0);
    const deleted = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/glance/kv`, { method: 'DELETE', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(deleted.status).toBe(204);

    const second = await cliAsync(['plan', '--synth-dir', app(['ops', 'web', 'db'])], world.env);
    expect(second.status).toBe(0);
    // A set: the app's order is the server's (sorted); items are compared by value, not by index.
    const block = (stdout: string) => { const l = stdout.split('\n'); const at = l.findIndex((x) => /~ meshPolicies = \[$/.test(x)); return at < 0 ? [] : l.slice(at + 1, l.indexOf('        ]', at) + 1).map((x) => x.trim()); };
    expect(block(second.stdout)).toEqual(['+ "db",', '"ops",', '"web",', ']']);
    const third = await cliAsync(['plan', '--synth-dir', app(['ops'])], world.env);
    expect(block(third.stdout)).toEqual(['"ops",', '- "web",', ']']);
    expect(second.stdout).toMatch(/# kv has been deleted outside converge/);
    expect(second.stdout).not.toContain('deleted outside converge"');
    expect(second.stdout).toMatch(/\n\nPlan: 1 to add, 1 to change, 0 to replace/);
  });

  test('a TOTP key created again after a deletion outside converge warns that enrolled devices need the new key', async () => {
    const dir = synthApp((stack) => { new TotpKey(stack, 'mfa', { name: 'glance-ann', issuer: 'Acme', accountName: 'ann@acme.test' }); }, 'glance-totp');
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    const deleted = await fetch(`${world.env.SECRETS_ADDR}/v1/totp/keys/glance-ann`, { method: 'DELETE', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(deleted.status).toBe(204);
    const plan = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(plan.stdout).toMatch(/# mfa has been deleted outside converge/);
    expect(plan.stdout).toMatch(/\+ mfa \(secrets\.TotpKey\) will be created[\s\S]*! creates a new TOTP key in place of the one deleted outside converge: devices enrolled with the old key/);
  });
});
