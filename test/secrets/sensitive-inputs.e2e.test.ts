import * as path from 'path';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { KvSecretData } from '../../lib/secrets/kv/kv-secret-data';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { allFiles, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// A sensitive attribute (a generated TOTP URL, a value a data source read) passed where a secret is
// expected with `SecretValue.resourceAttribute`: through the real CLI against the emulator, the
// value arrives, and it is never in the synthesized app, the state, the plans or anything printed.
describe('sensitive outputs as secret inputs', () => {
  let world: TestWorld;
  const planted = 'planted-source-password-8e21f5';
  const kvRead = async (p: string) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return r.status === 200 ? ((await r.json()) as { data: { data: Record<string, unknown> } }).data.data : undefined;
  };
  const run = async (args: string[], prints: string[]) => {
    const r = await cliAsync(args, world.env);
    expect({ args, stderr: r.stderr, status: r.status }).toEqual({ args, stderr: '', status: 0 });
    prints.push(r.stdout, r.stderr);
    return r;
  };
  const assertNowhere = (value: string, dirs: string[], prints: string[]) => {
    for (const f of dirs.flatMap((d) => allFiles(d))) expect({ file: f.file, leaked: f.text.includes(value) }).toEqual({ file: f.file, leaked: false });
    for (const p of prints) expect(p).not.toContain(value);
  };
  beforeAll(async () => { world = await startWorld({}, { SOURCE_PASSWORD: planted }); });
  afterAll(async () => world?.stop());

  test("a generated TOTP key's url stored into a KvSecret: arrives, stays secret, and the next plan is a no-op", async () => {
    const dir = synthApp((stack) => {
      const key = new TotpKey(stack, 'mfa', { name: 'ann', issuer: 'Acme', accountName: 'ann@acme.test' });
      new KvSecret(stack, 'enrol', { path: 'mfa/ann', data: { otpauth: SecretValue.resourceAttribute(key.url), user: 'ann' } });
    }, 'totp-to-kv');
    const prints: string[] = [];
    await run(['plan', '--synth-dir', dir, '--out', path.join(world.dir, 'totp.plan')], prints);
    await run(['apply', '--synth-dir', dir, '--auto-approve', '--log-level', 'debug'], prints);
    const plan = await run(['plan', '--synth-dir', dir, '--detailed-exitcode', '--log-level', 'debug'], prints);
    expect(plan.stdout).toMatch(/No changes/);
    await run(['plan', '--synth-dir', dir, '--json'], prints);
    await run(['state', 'show', 'enrol', '--stack', 'totp-to-kv'], prints);
    await run(['output', '--stack', 'totp-to-kv'], prints);
    const stored = await kvRead('mfa/ann');
    expect(stored).toEqual({ otpauth: expect.stringMatching(/^otpauth:\/\/totp\/Acme:ann@acme\.test\?.*secret=[A-Z2-7]+/), user: 'ann' });
    const secret = /secret=([A-Z2-7]+)/.exec(stored!.otpauth as string)![1];
    assertNowhere(secret, [dir, path.join(world.dir, '.converge'), world.dir], prints);
    const state = allFiles(path.join(world.dir, '.converge')).find((f) => f.file.endsWith('state.json') && f.text.includes('"enrol"'))!;
    const rec = JSON.parse(state.text).resources.enrol;
    expect(rec.spec.data.otpauth).toEqual({ $secret: { ref: 'mfa.url' } });
    expect(rec.hmacs['data.otpauth']).toMatch(/^[0-9a-f]{64}$/);
  });

  test("one key of a KvSecretData's data stored into another KvSecret: arrives, stays secret; a missing key fails the plan", async () => {
    const setup = synthApp((stack) => {
      new KvSecret(stack, 'src', { path: 'copy/src', data: { password: SecretValue.fromEnv('SOURCE_PASSWORD'), user: 'app' } });
    }, 'copy-setup');
    const prints: string[] = [];
    await run(['apply', '--synth-dir', setup, '--auto-approve'], prints);
    const dir = synthApp((stack) => {
      const read = new KvSecretData(stack, 'read', { path: 'copy/src' });
      new KvSecret(stack, 'copy', { path: 'copy/dst', data: { password: SecretValue.resourceAttribute(read.field('password')), user: read.field('user') } });
    }, 'copy');
    await run(['plan', '--synth-dir', dir, '--out', path.join(world.dir, 'copy.plan')], prints);
    await run(['apply', '--synth-dir', dir, '--auto-approve', '--log-level', 'debug'], prints);
    // The data source is read again; nothing else changes (--detailed-exitcode answers 0).
    const plan = await run(['plan', '--synth-dir', dir, '--detailed-exitcode'], prints);
    expect(plan.stdout).toMatch(/Plan: 0 to add, 0 to change, 0 to replace, 0 to destroy/);
    await run(['plan', '--synth-dir', dir, '--json'], prints);
    await run(['state', 'show', 'copy', '--stack', 'copy'], prints);
    expect(await kvRead('copy/dst')).toEqual({ password: planted, user: 'app' });
    assertNowhere(planted, [dir, setup, path.join(world.dir, '.converge'), world.dir], prints);

    const missing = synthApp((stack) => {
      const read = new KvSecretData(stack, 'read', { path: 'copy/src' });
      new KvSecret(stack, 'copy', { path: 'copy/none', data: { token: SecretValue.resourceAttribute(read.field('token')) } });
    }, 'missing-key');
    const failed = await cliAsync(['plan', '--synth-dir', missing], world.env);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/missing-key\/copy: data\.token refers to "data\.token" of read, which has no such value \(its data has no key "token"\)/);
    expect(failed.stderr + failed.stdout).not.toContain(planted);
  });

  test('SecretValue.resourceAttribute refuses a value that is not an attribute of a converge construct', () => {
    expect(() => SecretValue.resourceAttribute('plain text')).toThrow(/SecretValue\.resourceAttribute: the value must be an attribute of a converge construct/);
  });
});
