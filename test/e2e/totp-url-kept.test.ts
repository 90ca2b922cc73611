import { TerraformStack } from 'cdktf';
import { RemovalPolicy } from '../../lib/core/constructs/removal-policy';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';


// A generated TOTP key's url and barcode are answered by the service only when the key is created. A
// record rebuilt for a change that only state sees (its removal policy) or for a move (the construct
// renamed, the same key) keeps them: a KvSecret storing the url still gets it on every later apply.
describe('a TotpKey record rebuilt keeps its url and barcode', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world?.stop(); });

  const app = (v: { id: string; retain: boolean; note: string }) => synthApp((st: TerraformStack) => {
    const key = new TotpKey(st, v.id, {
      name: 'ann', issuer: 'Acme', accountName: 'ann@acme.test', exported: true,
      removalPolicy: v.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    new KvSecret(st, 'enrol', { path: 'mfa/ann', data: { otpauth: SecretValue.resourceAttribute(key.url), note: v.note } });
  }, 'totp');
  const stored = async () => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/mfa/ann`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return ((await r.json()) as { data: { data: Record<string, string> } }).data.data;
  };
  const sensitive = async (address: string) => {
    const r = await cliAsync(['output', '--stack', 'totp', '--show-sensitive', '--json'], world.env);
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout)[address] as Record<string, string>;
  };
  const apply = async (dir: string) => {
    const r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    if (r.status !== 0) throw new Error(`apply exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
    return r;
  };

  test('after a removal-policy change and after a move', async () => {
    await apply(app({ id: 'mfa', retain: false, note: 'v1' }));
    const first = await stored();
    expect(first.otpauth).toMatch(/^otpauth:\/\/totp\/Acme:ann@acme\.test\?/);
    const outputs = await sensitive('mfa');
    expect(outputs.url).toBe(first.otpauth);
    expect(outputs.barcode).toMatch(/^[A-Za-z0-9+/=]{20,}$/);

    // A state-only change of the key, and the KV secret's data changes too: it is written again with the url.
    await apply(app({ id: 'mfa', retain: true, note: 'v2' }));
    expect(await stored()).toEqual({ otpauth: first.otpauth, note: 'v2' });
    expect(await sensitive('mfa')).toMatchObject({ url: first.otpauth, barcode: outputs.barcode });

    // A move: the construct renamed, the same key.
    await apply(app({ id: 'ann-mfa', retain: true, note: 'v3' }));
    expect(await stored()).toEqual({ otpauth: first.otpauth, note: 'v3' });
    expect(await sensitive('ann-mfa')).toMatchObject({ url: first.otpauth, barcode: outputs.barcode });
    const plan = await cliAsync(['plan', '--synth-dir', app({ id: 'ann-mfa', retain: true, note: 'v4' }), '--detailed-exitcode'], world.env);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(2);
  });
});
