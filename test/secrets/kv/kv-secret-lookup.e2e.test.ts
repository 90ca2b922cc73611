import * as path from 'path';
import { SecretValue } from '../../../lib/core/constructs/secret-value';
import { KvSecret } from '../../../lib/secrets/kv/kv-secret';
import { allFiles, cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

// `KvSecret.fromPath` reads an existing secret at plan time, through the real CLI against the
// emulator: its version feeds another construct; its data is read as a secret (never in state
// nor printed); an absent one fails the plan, naming the construct.
describe('KvSecret.fromPath', () => {
  let world: TestWorld;
  const planted = 'planted-lookup-password-4d17c2';
  const kvRead = async (mount: string, p: string) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/${mount}/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return r.status === 200 ? ((await r.json()) as { data: { data: Record<string, unknown> } }).data.data : undefined;
  };
  beforeAll(async () => { world = await startWorld({ secretsMounts: { 'kv/team': 'kv' } }, { LOOKUP_PASSWORD: planted }); });
  afterAll(async () => world?.stop());

  test('an existing secret: read at plan time, its version referenced, never changed nor deleted; its data stays secret', async () => {
    // In a mount whose path holds a slash: the id `kv/team/lookup/src` alone does not tell where the mount ends.
    const setup = synthApp((stack) => {
      new KvSecret(stack, 'made', { mount: 'kv/team', path: 'lookup/src', data: { password: SecretValue.fromEnv('LOOKUP_PASSWORD') } });
    }, 'setup');
    expect((await cliAsync(['apply', '--synth-dir', setup, '--auto-approve'], world.env)).status).toBe(0);
    const dir = synthApp((stack) => {
      const src = KvSecret.fromPath(stack, 'existing', 'kv/team', 'lookup/src');
      new KvSecret(stack, 'fed', { path: 'lookup/fed', data: { srcVersion: src.version, srcPath: `${src.mount}/${src.path}` } });
    }, 'consumer');
    const prints: string[] = [];
    for (const args of [['plan', '--synth-dir', dir], ['apply', '--synth-dir', dir, '--auto-approve'], ['plan', '--synth-dir', dir, '--detailed-exitcode']]) {
      const r = await cliAsync(args, world.env);
      expect({ args, stderr: r.stderr, status: r.status }).toEqual({ args, stderr: '', status: 0 });
      prints.push(r.stdout);
    }
    expect(prints[0]).toMatch(/existing \(lookup:secrets\.KvSecret\)/);
    expect(await kvRead('secret', 'lookup/fed')).toEqual({ srcVersion: 1, srcPath: 'kv/team/lookup/src' });
    for (const f of [...allFiles(dir), ...allFiles(path.join(world.dir, '.converge'))]) {
      expect({ file: f.file, leaked: f.text.includes(planted) }).toEqual({ file: f.file, leaked: false });
    }
    for (const p of prints) expect(p).not.toContain(planted);

    const destroy = await cliAsync(['destroy', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(destroy.status).toBe(0);
    expect(await kvRead('secret', 'lookup/fed')).toBeUndefined();
    expect(await kvRead('kv/team', 'lookup/src')).toEqual({ password: planted });
  });

  test('an absent secret fails the plan, naming the construct and the secret', async () => {
    const dir = synthApp((stack) => {
      const src = KvSecret.fromPath(stack, 'missing', 'secret', 'no/such');
      new KvSecret(stack, 'fed', { path: 'lookup/never', data: { v: src.version } });
    }, 'absent');
    const plan = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(plan.status).toBe(1);
    expect(plan.stderr).toMatch(/absent\/missing: secrets\.KvSecret "secret\/no\/such" does not exist/);
  });

  test('a bad mount or path is refused at synth, naming the construct', () => {
    expect(() => synthApp((stack) => { KvSecret.fromPath(stack, 'bad', 'secret', '../etc'); }, 'bad'))
      .toThrow(/bad\/bad: path "\.\.\/etc" must be segments separated by "\/"/);
  });
});
