import * as path from 'path';
import { SecretValue } from '../../lib';
import { Organization } from '../../lib/platform/organization/organization';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { KvSecretData } from '../../lib/secrets/kv/kv-secret-data';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { allFiles, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// Issue 12 §2: apply does what the plan showed, with the values the plan saw.
// Through the real CLI (dist/) against the emulator over HTTP.
describe('apply uses what the plan saw', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const kv = async (p: string) => {
    const res = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return res.status === 200 ? ((await res.json()) as { data: { data: Record<string, unknown>; metadata: { version: number } } }).data : undefined;
  };
  const write = (p: string, data: Record<string, unknown>) => fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, {
    method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: JSON.stringify({ data }),
  });

  test('a saved plan writes against the version it saw: a writer after the plan fails that object only', async () => {
    const build = (v: string) => synthApp((s) => {
      new KvSecret(s, 'a', { path: 'pv/a', data: { v } });
      new KvSecret(s, 'b', { path: 'pv/b', data: { v } });
    }, 'pv-cas');
    let r = await cliAsync(['apply', '--synth-dir', build('1'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    const planFile = path.join(world.dir, 'pv-cas.plan');
    r = await cliAsync(['plan', '--synth-dir', build('2'), '--out', planFile], world.env);
    expect(r.status).toBe(0);
    await write('pv/a', { v: 'someone-else' });
    r = await cliAsync(['apply', planFile], world.env);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/failed\s+a \(update\): .*pv\/a was written by someone else/);
    expect((await kv('pv/a'))!.data).toEqual({ v: 'someone-else' });
    expect((await kv('pv/b'))!.data).toEqual({ v: '2' });
  });

  test('a reference to an object the apply does not change resolves to what the plan read, not stale state', async () => {
    const app = synthApp((s) => {
      const src = new KvSecret(s, 'src', { path: 'pv/src', data: { a: '1' } });
      new KvSecret(s, 'dst', { path: 'pv/dst', data: { v: src.version } });
    }, 'pv-ref');
    let r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await kv('pv/dst'))!.data).toEqual({ v: 1 });
    // Rewritten outside converge with the same data: a new version, no drift of its own.
    await write('pv/src', { a: '1' });
    r = await cliAsync(['plan', '--synth-dir', app, '--json'], world.env);
    const changes = JSON.parse(r.stdout).stacks[0].changes;
    expect(changes.find((c: { address: string }) => c.address === 'src').action).toBe('noop');
    expect(changes.find((c: { address: string }) => c.address === 'dst').fields).toEqual([expect.objectContaining({ path: 'data.v' })]);
    r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await kv('pv/dst'))!.data).toEqual({ v: 2 });
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);
  });

  test('a reference to a sensitive output (a generated TOTP URL) is known, stays secret, and does not rewrite its dependent', async () => {
    const app = synthApp((s) => {
      const key = new TotpKey(s, 'otp', { name: 'pv-ann', issuer: 'Acme', accountName: 'ann@acme.test' });
      new KvSecret(s, 'enrol', { path: 'pv/enrol', data: { otp: key.url } });
    }, 'pv-totp');
    let r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(String((await kv('pv/enrol'))!.data.otp)).toMatch(/^otpauth:\/\//);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);
    const state = allFiles(path.join(world.dir, '.converge')).map((f) => f.text).join('\n');
    expect(state).not.toContain('otpauth://');
    r = await cliAsync(['state', 'show', 'enrol', '--synth-dir', app], world.env);
    expect(r.stdout + r.stderr).not.toContain('otpauth://');
  });

  test('a data source that depends on an object being updated is read during the apply; its dependents follow', async () => {
    const app = (a: string) => synthApp((s) => {
      const src = new KvSecret(s, 'src', { path: 'pv/ds-src', data: { a } });
      const read = new KvSecretData(s, 'read', { path: 'pv/ds-src' });
      read.node.addDependency(src);
      new KvSecret(s, 'dst', { path: 'pv/ds-dst', data: { v: read.version } });
    }, 'pv-ds');
    let r = await cliAsync(['apply', '--synth-dir', app('1'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await kv('pv/ds-dst'))!.data).toEqual({ v: 1 });
    r = await cliAsync(['plan', '--synth-dir', app('2'), '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/read \(secrets\.KvSecretData\) will be read \(read during apply/);
    expect(r.stdout).toMatch(/data\.v = .*\(known after apply\)|data\.v = \(sensitive/);
    r = await cliAsync(['apply', '--synth-dir', app('2'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await kv('pv/ds-dst'))!.data).toEqual({ v: 2 });
    r = await cliAsync(['plan', '--synth-dir', app('2'), '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });

  test('a saved plan applied after a secret\'s source changed records what was sent, so the next plan shows the secret', async () => {
    const app = (maxVersions: number) => synthApp((s) => {
      new KvSecret(s, 'pw', { path: 'pv/pw', data: { pw: SecretValue.fromEnv('PV_PW') }, maxVersions });
    }, 'pv-env');
    let r = await cliAsync(['apply', '--synth-dir', app(0), '--auto-approve'], { ...world.env, PV_PW: 'pv-one-1a2b' });
    expect(r.status).toBe(0);
    const planFile = path.join(world.dir, 'pv-env.plan');
    r = await cliAsync(['plan', '--synth-dir', app(5), '--out', planFile], { ...world.env, PV_PW: 'pv-one-1a2b' });
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', planFile], { ...world.env, PV_PW: 'pv-two-3c4d' });
    expect(r.status).toBe(0);
    // The plan changed only the metadata: the secret was not sent, and the API still holds the first value.
    expect((await kv('pv/pw'))!.data).toEqual({ pw: 'pv-one-1a2b' });
    r = await cliAsync(['plan', '--synth-dir', app(5), '--detailed-exitcode'], { ...world.env, PV_PW: 'pv-two-3c4d' });
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/data\.pw = \(sensitive/);
  });

  test('the same for a write-only secret (an OAuth client\'s secret, never read back): state records what was sent', async () => {
    const org = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/organizations`, {
      method: 'POST', headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'organizations', attributes: { name: 'pv-org', email: 'a@b.io' } } }),
    });
    expect(org.status).toBe(201);
    const app = (name: string) => synthApp((s) => {
      new OAuthClient(s, 'vcs', { organization: Organization.fromName(s, 'org', 'pv-org'), name, serviceProvider: VcsServiceProvider.PROVIDER_A, key: 'k',
        httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('PV_TOKEN'),
        secret: SecretValue.fromEnv('PV_SECRET') });
    }, 'pv-wo');
    const env = (secret: string) => ({ ...world.env, PV_TOKEN: 'pv-token-7e8f', PV_SECRET: secret });
    let r = await cliAsync(['apply', '--synth-dir', app('a'), '--auto-approve'], env('pv-secret-one'));
    expect(r.status).toBe(0);
    const planFile = path.join(world.dir, 'pv-wo.plan');
    r = await cliAsync(['plan', '--synth-dir', app('b'), '--out', planFile], env('pv-secret-one'));
    expect(r.stdout).not.toMatch(/secret = /);
    r = await cliAsync(['apply', planFile], env('pv-secret-two'));
    expect(r.status).toBe(0);
    // The apply sent the name only; the API holds the first secret, and the next plan says so.
    r = await cliAsync(['plan', '--synth-dir', app('b'), '--detailed-exitcode'], env('pv-secret-two'));
    expect(r.stdout).toMatch(/secret = \(sensitive/);
    expect(r.status).toBe(2);
  });
});
