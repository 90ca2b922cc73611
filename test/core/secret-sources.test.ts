import * as fs from 'fs';
import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { SecretsProvider } from '../../lib/secrets/provider';
import { resolveSecret } from '../../lib/core/crypto/resolve-secret';
import { setSecretFileDirs } from '../../lib/core/crypto/secret-sources';
import { tempDir } from '../support/harness';

// The read itself holds the rules, whatever called it (a saved plan, the engine's API): the checks of a
// synthesized output when the CLI reads it (test/e2e/untrusted-synth-output.test.ts) come first.
describe('resolveSecret reads only where a secret may be', () => {
  const outside = tempDir('converge-secret-sources-');
  const file = path.join(outside, 'secret.txt');
  beforeAll(() => fs.writeFileSync(file, 'the-file-value\n'));
  afterEach(() => setSecretFileDirs([]));
  afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));

  test.each([
    ['converge\'s own variable', { env: 'CONVERGE_STATE_KEY' }, /x: data\.a: the secret source env CONVERGE_STATE_KEY is refused: CONVERGE_STATE_KEY is converge's own setting/],
    ['a PostgreSQL setting', { env: 'PGPASSWORD' }, /the secret source env PGPASSWORD is refused/],
    ['/proc', { file: '/proc/self/environ' }, /x: data\.a: cannot read secret file \/proc\/self\/environ: \/proc is never read/],
    ['/sys', { file: '/sys/kernel/hostname' }, /\/sys is never read/],
    ['a file outside the app directory', { file }, /outside the app directory/],
  ])('%s is refused, naming the source and never its value', (_what, source, message) => {
    expect(() => resolveSecret({ $secret: source }, 'x: data.a')).toThrow(message);
  });

  test('a directory named with --secret-file-dir is read', () => {
    setSecretFileDirs([outside]);
    expect(resolveSecret({ $secret: { file } }, 'x: data.a')).toBe('the-file-value');
  });
});

// The constructs refuse the same names when the app is synthesized, so that an app's author hears of it first.
describe('the constructs refuse converge\'s own variables at synth', () => {
  test.each([
    ['SecretValue.fromEnv', () => SecretValue.fromEnv('CONVERGE_STATE_KEY'), /SecretValue.fromEnv: CONVERGE_STATE_KEY is converge's own setting/],
    ['SecretValue.fromEnv', () => SecretValue.fromEnv('PGPASSWORD'), /SecretValue.fromEnv: PGPASSWORD is a PostgreSQL setting/],
    ['a provider\'s tokenEnv', () => new SecretsProvider(new TerraformStack(new App(), 's'), 'p', { tokenEnv: 'PLATFORM_TOKEN' }),
      /s\/p: tokenEnv is refused: PLATFORM_TOKEN holds the platform API's token, never the secrets API's/],
    ['a provider\'s addressEnv', () => new SecretsProvider(new TerraformStack(new App(), 's'), 'p', { addressEnv: 'PGHOST' }),
      /s\/p: addressEnv is refused: PGHOST is a PostgreSQL setting/],
  ])('%s', (_what, make, message) => {
    expect(make).toThrow(message);
  });
});
