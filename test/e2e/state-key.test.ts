import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

const newKey = () => crypto.randomBytes(32).toString('hex');

/** The paths the emulator's KV holds under a prefix. */
async function kvKeys(world: TestWorld, prefix: string): Promise<string[]> {
  const r = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/${prefix}/?list=true`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
  if (r.status === 404) return [];
  return ((await r.json()) as { data: { keys: string[] } }).data.keys.sort();
}

function stateFile(world: TestWorld, stack: string): string {
  return path.join(world.env.CONVERGE_DIR!, 'stacks', stack, 'state.json');
}

describe('the state key', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('a weak key is refused with how to make one; hex, base64, keygen and long passphrases are accepted', async () => {
    const dir = synthApp((stack) => { new KvSecret(stack, 'a', { path: 'weak/a', data: { n: '1' } }); }, 'weak');
    for (const weak of ['a', 'test-key-1234-1700000000000', newKey().slice(0, 62), 'passphrase:too short']) {
      const r = await cliAsync(['plan', '--synth-dir', dir], { ...world.env, CONVERGE_STATE_KEY: weak });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/CONVERGE_STATE_KEY( must be at least 32 random bytes|: a passphrase must have at least 20)/);
      expect(r.stderr).toMatch(/openssl rand -hex 32/);
      expect(r.stderr + r.stdout).not.toContain(weak.length > 1 ? weak : '\u0000');
    }
    const generated = await cliAsync(['keygen'], world.env);
    expect(generated.status).toBe(0);
    expect(generated.stdout.trim()).toMatch(/^[0-9a-f]{64}$/);
    for (const good of [generated.stdout.trim(), crypto.randomBytes(32).toString('base64'), crypto.randomBytes(48).toString('base64url'),
      'passphrase:correct horse battery staple orbit']) {
      const env = { ...world.env, CONVERGE_STATE_KEY: good, CONVERGE_DIR: path.join(world.dir, `k-${crypto.randomBytes(4).toString('hex')}`) };
      const r = await cliAsync(['plan', '--synth-dir', dir], env);
      expect({ good, status: r.status, stderr: r.stderr }).toEqual({ good, status: 0, stderr: '' });
    }
    expect(await kvKeys(world, 'weak')).toEqual([]);
  });

  test('a state written with one key refuses another or none, naming the variable or the key file; nothing is sent', async () => {
    const dir = synthApp((stack) => { new KvSecret(stack, 'db', { path: 'keyed/db', data: { password: 'planted-pw-1' } }); }, 'keyed');
    const first = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(first.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(stateFile(world, 'keyed'), 'utf8')).keyCheck).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const other = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], { ...world.env, CONVERGE_STATE_KEY: newKey() });
    expect(other.status).toBe(1);
    expect(other.stderr).toMatch(/state of stack "keyed" .* was written with another state key than CONVERGE_STATE_KEY/);
    expect(other.stdout).not.toMatch(/update|✓/);

    const none = await cliAsync(['plan', '--synth-dir', dir], { ...world.env, CONVERGE_STATE_KEY: '' });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain(`CONVERGE_STATE_KEY is not set and ${path.join(world.env.CONVERGE_DIR!, 'state.key')} does not exist`);
    expect(fs.existsSync(path.join(world.env.CONVERGE_DIR!, 'state.key'))).toBe(false);

    const meta = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/keyed/db`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(((await meta.json()) as { data: { current_version: number } }).data.current_version).toBe(1);
    const same = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(same.status).toBe(0);
  });

  test('the generated key file is checked too, and named', async () => {
    const env = { ...world.env, CONVERGE_STATE_KEY: '', CONVERGE_DIR: path.join(world.dir, 'filekey') };
    const dir = synthApp((stack) => { new KvSecret(stack, 'f', { path: 'filekey/f', data: { n: '1' } }); }, 'filekey');
    const first = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(first.status).toBe(0);
    const keyFile = path.join(env.CONVERGE_DIR, 'state.key');
    expect(first.stderr).toContain(`created a state key in ${keyFile}`);
    fs.writeFileSync(keyFile, newKey() + '\n');
    const r = await cliAsync(['plan', '--synth-dir', dir], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`was written with another state key than the key file ${keyFile}`);
  });

  test('a state without a key check (an earlier release) gets one on the next write, under the key in use', async () => {
    const dir = synthApp((stack) => { new KvSecret(stack, 'o', { path: 'old/o', data: { n: '1' } }); }, 'old');
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    const doc = JSON.parse(fs.readFileSync(stateFile(world, 'old'), 'utf8'));
    delete doc.keyCheck;
    fs.writeFileSync(stateFile(world, 'old'), JSON.stringify(doc));
    expect((await cliAsync(['plan', '--synth-dir', dir], world.env)).status).toBe(0);
    expect(JSON.parse(fs.readFileSync(stateFile(world, 'old'), 'utf8')).keyCheck).toBeUndefined(); // plan writes nothing
    expect((await cliAsync(['state', 'rm', 'o', '--stack', 'old'], world.env)).status).toBe(0);
    const after = JSON.parse(fs.readFileSync(stateFile(world, 'old'), 'utf8'));
    expect(after.keyCheck).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await cliAsync(['state', 'list', '--stack', 'old'], { ...world.env, CONVERGE_STATE_KEY: newKey() })).stderr)
      .toMatch(/written with another state key than CONVERGE_STATE_KEY/);
  });

  test('a newer state format is refused on every read, naming the version', async () => {
    const dir = synthApp((stack) => { new KvSecret(stack, 'n', { path: 'newer/n', data: { n: '1' } }); }, 'newer');
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    const doc = JSON.parse(fs.readFileSync(stateFile(world, 'newer'), 'utf8'));
    fs.writeFileSync(stateFile(world, 'newer'), JSON.stringify({ ...doc, version: 7 }));
    for (const args of [['plan', '--synth-dir', dir], ['state', 'list', '--stack', 'newer'], ['state', 'pull', '--stack', 'newer'], ['output', '--stack', 'newer']]) {
      const r = await cliAsync(args, world.env);
      expect({ args, status: r.status }).toEqual({ args, status: 1 });
      expect(r.stderr).toMatch(/has state format version 7, written by a newer converge; this one reads version 1 at most/);
    }
  });
});

describe('saved plan files', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('an edited plan file is refused before anything is sent; the file is mode 0600 even when one was there', async () => {
    const dir = synthApp((stack) => { new KvSecret(stack, 's', { path: 'planfile/s', data: { password: 'planted-pw-2' } }); }, 'planfile');
    const file = path.join(world.dir, 'tf.plan');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--out', file], world.env);
    expect(plan.status).toBe(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved.mac).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Pointing the provider at another host (the attack), reordering keys (harmless) and another key.
    const edited = JSON.parse(JSON.stringify(saved));
    edited.plans[0].desired.resources.s.provider = { ...edited.plans[0].desired.resources.s.provider, address: 'http://127.0.0.1:9' };
    fs.writeFileSync(path.join(world.dir, 'edited.plan'), JSON.stringify(edited));
    const attacked = await cliAsync(['apply', path.join(world.dir, 'edited.plan')], world.env);
    expect(attacked.status).toBe(1);
    expect(attacked.stderr).toMatch(/edited\.plan is not authentic: it was changed after converge plan wrote it/);
    const unsigned = { ...saved };
    delete unsigned.mac;
    fs.writeFileSync(path.join(world.dir, 'unsigned.plan'), JSON.stringify(unsigned));
    expect((await cliAsync(['apply', path.join(world.dir, 'unsigned.plan')], world.env)).stderr).toMatch(/is not authentic/);
    const otherKey = await cliAsync(['apply', file], { ...world.env, CONVERGE_STATE_KEY: newKey() });
    expect(otherKey.stderr).toMatch(/is not authentic: .* made with another state key/);
    expect(await kvKeys(world, 'planfile')).toEqual([]);

    const reordered = Object.fromEntries(Object.entries(saved).reverse());
    fs.writeFileSync(path.join(world.dir, 'reordered.plan'), JSON.stringify(reordered, null, 2));
    const applied = await cliAsync(['apply', path.join(world.dir, 'reordered.plan')], world.env);
    expect(applied.stderr).toBe('');
    expect(applied.status).toBe(0);
    expect(await kvKeys(world, 'planfile')).toEqual(['s']);
  });
});
