import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';
import { encrypt } from '../../lib/core/crypto/state-key';
import { countingProxy, CountingProxy } from '../support/counting-proxy';
import { cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';

// docs/security.md recommends synthesizing a pull request's app in a job without secrets and running
// `converge plan --synth-dir` in the job with the tokens. The synthesized output is then written by the
// pull request's author: each file here is written by hand, as an attacker would, never by the constructs.
// Whatever it names, the state key and a planted variable never reach an API nor the output.
describe('a synthesized output written by an attacker', () => {
  const PLANTED_PG = 'planted-pg-password-3f9a1c';
  const PLANTED_ADDR = 'planted-address-value-77d2e0';
  const PLANTED_FILE = 'planted-file-secret-c41b8e';
  const PLANTED_SEALED = 'planted-sealed-secret-9e0a5d';
  let world: TestWorld;
  let proxy: CountingProxy;
  let headersSeen: string[];
  let attacker: http.Server;
  let attackerUrl: string;
  let attackerSeen: string[];
  let appDir: string;
  let outside: string;
  let stateKey: string;

  beforeAll(async () => {
    world = await startWorld({}, { PGPASSWORD: PLANTED_PG, STAGE_ADDR: PLANTED_ADDR, KV_VALUE: 'an-ordinary-value' });
    stateKey = world.env.CONVERGE_STATE_KEY!;
    headersSeen = [];
    proxy = await countingProxy(world.env.SECRETS_ADDR!, (_req, headers) => { headersSeen.push(JSON.stringify(headers)); return undefined; });
    attackerSeen = [];
    attacker = http.createServer((req, res) => {
      attackerSeen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
    // The pull request's checkout, where the plan job runs: no cdktf.json above it, so it is the app directory.
    appDir = tempDir('converge-untrusted-app-');
    fs.writeFileSync(path.join(appDir, 'db-password.txt'), 'in-the-app-directory\n');
    fs.symlinkSync('/proc/self/environ', path.join(appDir, 'innocent.txt'));
    fs.mkdirSync(path.join(appDir, '.git'));
    fs.writeFileSync(path.join(appDir, '.git', 'config'), '[http] extraheader = AUTHORIZATION: basic planted\n');
    outside = tempDir('converge-untrusted-outside-');
    fs.writeFileSync(path.join(outside, 'secret.txt'), `${PLANTED_FILE}\n`);
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((r) => attacker.close(r));
    await world.stop();
    fs.rmSync(appDir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const env = (): NodeJS.ProcessEnv => ({ ...world.env, SECRETS_ADDR: proxy.url });
  const standard = { api: 'secrets', addressEnv: 'SECRETS_ADDR', tokenEnv: 'SECRETS_TOKEN' };

  /** A synth directory with one stack holding one KV secret, its spec and provider changed by `edit`. */
  const handWritten = (edit: { spec?: Record<string, unknown>; data?: Record<string, unknown>; provider?: Record<string, unknown>;
    others?: Record<string, unknown> }): string => {
    const dir = tempDir('converge-untrusted-synth-');
    const spec = { mount: 'secret', path: 'untrusted/a', data: edit.data ?? { a: 'plain' }, customMetadata: {}, maxVersions: 0, casRequired: false, deleteVersionAfter: '0s', ...edit.spec };
    const doc = {
      '//': { metadata: { converge: { version: 1, stack: 'untrusted', resources: {
        kv: { kind: 'secrets.KvSecret', spec, provider: edit.provider ?? standard, dependsOn: Object.keys(edit.others ?? {}), removalPolicy: 'destroy', path: 'untrusted/kv' },
        ...edit.others,
      } } } },
    };
    fs.mkdirSync(path.join(dir, 'stacks', 'untrusted'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'stacks', 'untrusted', 'cdk.tf.json'), JSON.stringify(doc));
    return dir;
  };

  /** Runs the CLI in the app directory; checks that no planted value was printed or sent. */
  const run = async (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
    proxy.seen.length = 0;
    headersSeen.length = 0;
    const r = await cliAsync(args, { ...env(), ...extraEnv }, appDir);
    const printed = r.stdout + r.stderr;
    const sent = [...proxy.seen.map((s) => `${s.method} ${s.url} ${s.body}`), ...headersSeen, ...attackerSeen].join('\n');
    for (const value of [stateKey, PLANTED_PG, PLANTED_ADDR, PLANTED_FILE, PLANTED_SEALED, 'AUTHORIZATION: basic planted']) {
      expect({ value, printed: printed.includes(value), sent: sent.includes(value) }).toEqual({ value, printed: false, sent: false });
    }
    expect(printed).not.toMatch(/PATH=|HOME=/); // no environment of the process (/proc/self/environ)
    expect(attackerSeen).toEqual([]);
    return r;
  };

  test('the hand-written output is planned when it names nothing it may not (the control)', async () => {
    const dir = handWritten({ data: { a: { $secret: { env: 'KV_VALUE' } }, b: { $secret: { file: 'db-password.txt' } } } });
    const r = await run(['plan', '--synth-dir', dir, '--detailed-exitcode']);
    expect([r.status, r.stderr]).toEqual([2, '']);
    expect(proxy.seen.some((s) => s.url.includes('/v1/secret/metadata/untrusted/a'))).toBe(true);
  });

  describe('a provider naming a variable', () => {
    test.each([
      ['CONVERGE_STATE_KEY as tokenEnv', { tokenEnv: 'CONVERGE_STATE_KEY' }, /tokenEnv is refused: CONVERGE_STATE_KEY is converge's own setting/],
      ['PGPASSWORD as tokenEnv', { tokenEnv: 'PGPASSWORD' }, /tokenEnv is refused: PGPASSWORD is a PostgreSQL setting/],
      ["the mesh API's token as the secrets provider's tokenEnv", { tokenEnv: 'MESH_HTTP_TOKEN' }, /tokenEnv is refused: MESH_HTTP_TOKEN holds the mesh API's token/],
      ["Consul's own token variable", { tokenEnv: 'CONSUL_HTTP_TOKEN' }, /tokenEnv is refused: CONSUL_HTTP_TOKEN holds the mesh API's token/],
      ['PGPASSWORD as addressEnv', { addressEnv: 'PGPASSWORD' }, /addressEnv is refused: PGPASSWORD is a PostgreSQL setting/],
      ['a token variable as addressEnv', { addressEnv: 'SECRETS_TOKEN' }, /addressEnv is refused: SECRETS_TOKEN holds an API token, never an address/],
      ['skipTlsVerify for the address the job gives', { address: undefined, skipTlsVerify: true }, /skipTlsVerify is refused: it would lower the protection of the secrets token/],
      ['allowInsecureHttp for the address the job gives', { address: undefined, allowInsecureHttp: true }, /allowInsecureHttp is refused/],
      ['a variable the command line does not allow', { tokenEnv: 'SECRETS_PROD_TOKEN' }, /tokenEnv is SECRETS_PROD_TOKEN: .*pass --provider-env SECRETS_PROD_TOKEN/],
    ])('%s: refused before anything is sent, naming the construct and field', async (_what, provider, message) => {
      const dir = handWritten({ provider: { ...standard, address: attackerUrl, ...provider } });
      for (const args of [['plan', '--synth-dir', dir], ['apply', '--synth-dir', dir, '--auto-approve']]) {
        const r = await run(args);
        expect([args[0], r.status]).toEqual([args[0], 1]);
        expect(r.stderr).toMatch(/untrusted\/kv: its provider/);
        expect(r.stderr).toMatch(message);
        expect(proxy.seen).toEqual([]);
      }
    });

    test("an address of the output's own: the token goes there only when the command line allows it", async () => {
      const evil = handWritten({ provider: { ...standard, address: attackerUrl } });
      for (const args of [['plan', '--synth-dir', evil], ['apply', '--synth-dir', evil, '--auto-approve']]) {
        const r = await run(args);
        expect(r.status).toBe(1);
        expect(r.stderr).toContain(`untrusted/kv: its provider's address is "${attackerUrl}": converge sends the secrets API's token only to its address variable`);
        expect(r.stderr).toContain(`pass --provider-address ${attackerUrl}`);
      }
      // The API's own address, allowed by the plan job.
      const pinned = handWritten({ provider: { ...standard, address: proxy.url } });
      const ok = await run(['plan', '--synth-dir', pinned, '--detailed-exitcode', '--provider-address', proxy.url], { SECRETS_ADDR: 'http://127.0.0.1:9' });
      expect([ok.status, ok.stderr]).toEqual([2, '']);
      expect(proxy.seen.length).toBeGreaterThan(0);
    });

    test('--provider-env never allows converge\'s own variables', async () => {
      const dir = handWritten({ provider: { ...standard, tokenEnv: 'CONVERGE_STATE_KEY' } });
      const r = await run(['plan', '--synth-dir', dir, '--provider-env', 'CONVERGE_STATE_KEY']);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/--provider-env CONVERGE_STATE_KEY: CONVERGE_STATE_KEY is converge's own setting/);
    });

    test('a variable the command line allows is read, and its value never appears in an error', async () => {
      const allowed = handWritten({ provider: { ...standard, tokenEnv: 'SECRETS_PROD_TOKEN' } });
      const ok = await run(['plan', '--synth-dir', allowed, '--detailed-exitcode', '--provider-env', 'SECRETS_PROD_TOKEN'],
        { SECRETS_PROD_TOKEN: world.env.SECRETS_TOKEN });
      expect([ok.status, ok.stderr]).toEqual([2, '']);
      expect(headersSeen.every((h) => h.includes(world.env.SECRETS_TOKEN!))).toBe(true);

      const badAddress = handWritten({ provider: { ...standard, addressEnv: 'STAGE_ADDR' } });
      const r = await run(['plan', '--synth-dir', badAddress], { CONVERGE_PROVIDER_ENV: 'STAGE_ADDR' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/STAGE_ADDR is not a URL \(for example https:\/\/secrets\.example\.com\)/);
      expect(proxy.seen).toEqual([]);
    });
  });

  describe('a secret source', () => {
    test.each([
      ['the state key in a KV path', { spec: { path: { $secret: { env: 'CONVERGE_STATE_KEY' } } } },
        /untrusted\/kv: path holds a secret source \(env CONVERGE_STATE_KEY\), but path is not a sensitive field of secrets\.KvSecret/],
      ["the process's environment in a KV path", { spec: { path: { $secret: { file: '/proc/self/environ' } } } },
        /path holds a secret source \(file \/proc\/self\/environ\), but path is not a sensitive field/],
      ['a variable in custom metadata', { spec: { customMetadata: { owner: { $secret: { env: 'KV_VALUE' } } } } },
        /customMetadata\.owner holds a secret source \(env KV_VALUE\), but customMetadata\.owner is not a sensitive field/],
      ['the mount', { spec: { mount: { $secret: { env: 'PGPASSWORD' } } } }, /mount holds a secret source \(env PGPASSWORD\)/],
      ['the state key in secret data', { data: { a: { $secret: { env: 'CONVERGE_STATE_KEY' } } } },
        /the secret source env CONVERGE_STATE_KEY is refused: CONVERGE_STATE_KEY is converge's own setting/],
      ['PGPASSWORD in secret data', { data: { a: { $secret: { env: 'PGPASSWORD' } } } }, /the secret source env PGPASSWORD is refused/],
    ])('%s: refused, showing the source, before anything is sent', async (_what, edit, message) => {
      const r = await run(['plan', '--synth-dir', handWritten(edit)]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(proxy.seen).toEqual([]);
    });

    test('a secret another object read, as a KV path: refused before it is read', async () => {
      const reader = { kind: 'secrets.KvSecretData', dataSource: true, spec: { mount: 'secret', path: 'team/db', version: 0 },
        provider: standard, dependsOn: [], removalPolicy: 'destroy', path: 'untrusted/reader' };
      for (const ref of [{ $ref: 'reader', attr: 'data.password' }, { $ref: 'reader', attr: 'data.password', secret: true }]) {
        const r = await run(['plan', '--synth-dir', handWritten({ spec: { path: ref }, others: { reader } })]);
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(/untrusted\/kv: path holds a secret source \(a reference to the secret reader\.data\.password\)/);
        expect(proxy.seen).toEqual([]);
      }
    });

    test.each([
      ['/proc/self/environ', () => '/proc/self/environ', /secret source file \/proc\/self\/environ is refused: \/proc is never read/],
      ['a link to it in the app directory', () => 'innocent.txt', /secret source file innocent\.txt is refused: \/proc is never read/],
      ['/dev/zero', () => '/dev/zero', /\/dev is never read/],
      ["git's config in the app directory (a checkout's token)", () => '.git/config', /in converge's state directory or git's/],
      ['a file outside the app directory', () => path.join(outside, 'secret.txt'),
        /outside the app directory .*name its directory with --secret-file-dir DIR/],
    ])('a file source naming %s in secret data: refused, with no content shown', async (_what, file, message) => {
      const r = await run(['plan', '--synth-dir', handWritten({ data: { a: { $secret: { file: file() } } } })]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/untrusted\/kv: the secret source file .* is refused/);
      expect(r.stderr).toMatch(message);
      expect(proxy.seen).toEqual([]);
    });

    test('a directory named on the command line is read', async () => {
      const dir = handWritten({ data: { a: { $secret: { file: path.join(outside, 'secret.txt') } } } });
      const r = await run(['plan', '--synth-dir', dir, '--detailed-exitcode', '--secret-file-dir', outside]);
      expect([r.status, r.stderr]).toEqual([2, '']);
      // Not even `--secret-file-dir /` opens /proc.
      const proc = handWritten({ data: { a: { $secret: { file: '/proc/self/environ' } } } });
      const refused = await run(['plan', '--synth-dir', proc, '--secret-file-dir', '/']);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/\/proc is never read/);
    });

    test('a ciphertext of state copied into a sealed source does not decrypt', async () => {
      for (const sealed of [encrypt(PLANTED_SEALED), encrypt(PLANTED_SEALED, 'untrusted/kv/sensitiveOutputs')]) {
        const r = await run(['plan', '--synth-dir', handWritten({ data: { a: { $secret: { sealed } } } })]);
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(/untrusted\/kv: data\.a: a sealed secret of the synthesized output/);
      }
    });
  });
});
