import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { ROOT, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';

/**
 * What a command loads is what it needs (issue 37, start-up): `--version`, `--help` and `completion` load no
 * command, no API's kinds and no HTTP client; `plan` loads no emulator and no other command's code. Read from the
 * module cache of the real CLI (dist/), at exit.
 */
const MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');

/** A hook that writes the module cache's file names to `out` at exit. */
function exitHook(dir: string, out: string): string {
  const hook = path.join(dir, 'hook.js');
  fs.writeFileSync(hook, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache))));`);
  return hook;
}

function readLoaded(out: string): string[] {
  return (JSON.parse(fs.readFileSync(out, 'utf8')) as string[]).map((m) => path.relative(ROOT, m));
}

function modulesLoadedBy(args: string[], env: NodeJS.ProcessEnv = {}): string[] {
  const dir = tempDir('converge-modules-');
  const out = path.join(dir, 'modules.json');
  spawnSync(process.execPath, ['-r', exitHook(dir, out), MAIN, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, encoding: 'utf8' });
  const loaded = readLoaded(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return loaded;
}

/** As modulesLoadedBy, without blocking this process's event loop (the emulator runs in it); also the run's output. */
async function runLoading(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string; loaded: string[] }> {
  const dir = tempDir('converge-modules-');
  const out = path.join(dir, 'modules.json');
  const p = spawn(process.execPath, ['-r', exitHook(dir, out), MAIN, ...args], { env });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d) => { stdout += d; });
  p.stderr.on('data', (d) => { stderr += d; });
  const status = await new Promise<number | null>((resolve) => p.on('close', resolve));
  const loaded = readLoaded(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return { status, stdout, stderr, loaded };
}

const under = (loaded: string[], prefix: string) => loaded.filter((m) => m.startsWith(prefix));

test.each([['--version'], ['-V']])('converge %s prints the version and loads nothing but main.js and the version module (not even commander)', (flag) => {
  const loaded = modulesLoadedBy([flag]);
  expect(loaded.filter((m) => m.startsWith('dist') || m.startsWith('node_modules'))).toEqual([path.join('dist', 'cli', 'main.js'), path.join('dist', 'cli', 'version-fast-path.js')]);
  const r = spawnSync(process.execPath, [MAIN, flag], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  expect(r.stdout).toBe(`${JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}\n`);
});

test.each([['--version'], ['--help'], ['completion', 'bash'], ['keygen']])('converge %s loads no command, no kind and no HTTP client', (...args) => {
  const loaded = modulesLoadedBy(args);
  expect(loaded).toContain(path.join('dist', 'cli', 'main.js'));
  expect({
    commands: under(loaded, 'dist/cli/commands/'),
    kinds: [...under(loaded, 'dist/platform/'), ...under(loaded, 'dist/secrets/'), ...under(loaded, 'dist/mesh/')],
    engine: under(loaded, 'dist/core/engine/'),
    undici: under(loaded, 'node_modules/undici/'),
  }).toEqual({ commands: [], kinds: [], engine: [], undici: [] });
});

test('converge plan loads no emulator and no other command', () => {
  const synthDir = tempDir('converge-empty-synth-');
  fs.writeFileSync(path.join(synthDir, 'manifest.json'), JSON.stringify({ version: '0.21.0', stacks: {} }));
  const loaded = modulesLoadedBy(['plan', '--synth-dir', synthDir], { CONVERGE_DIR: path.join(synthDir, '.converge') });
  fs.rmSync(synthDir, { recursive: true, force: true });
  expect(under(loaded, 'dist/cli/commands/')).toEqual([path.join('dist', 'cli', 'commands', 'plan.js')]);
  expect(loaded.filter((m) => /emulator/.test(m))).toEqual([]);
});

/** An API's modules other than its profile (token headers and variables, which every run reads): its handlers, schemas, clients. */
const kindsOf = (loaded: string[], domain: string) => under(loaded, `dist/${domain}/`).filter((m) => m !== path.join('dist', domain, 'api-profile.js'));

describe('a run loads the kinds of the APIs its app and its state name, and no other', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const meshOnly = () => synthApp((stack) => {
    new ServiceDefaults(stack, 'svc', { name: 'lazy-svc', protocol: MeshProtocol.HTTP });
  }, 'lazy');

  test('a plan of a mesh-only app loads no secrets or platform handler, schema or client', async () => {
    const r = await runLoading(['plan', '--synth-dir', meshOnly()], { ...world.env, CONVERGE_DIR: path.join(world.dir, 'mesh-only') });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('lazy-svc');
    expect(kindsOf(r.loaded, 'mesh')).toContain(path.join('dist', 'mesh', 'config-entry', 'service-defaults.handler.js'));
    expect({ secrets: kindsOf(r.loaded, 'secrets'), platform: kindsOf(r.loaded, 'platform') }).toEqual({ secrets: [], platform: [] });
  });

  test('a plan of a secrets-only app loads no mesh or platform handler, schema, client or traffic diff', async () => {
    const app = synthApp((stack) => { new KvSecret(stack, 'kv', { path: 'lazy/only', data: { a: '1' } }); }, 'lazy-kv');
    const r = await runLoading(['plan', '--synth-dir', app], { ...world.env, CONVERGE_DIR: path.join(world.dir, 'secrets-only') });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(kindsOf(r.loaded, 'secrets')).toContain(path.join('dist', 'secrets', 'kv', 'kv-secret.handler.js'));
    expect({ mesh: kindsOf(r.loaded, 'mesh'), platform: kindsOf(r.loaded, 'platform') }).toEqual({ mesh: [], platform: [] });
  });

  test('a secret the app no longer declares is still in state: its API is loaded and the secret destroyed', async () => {
    const env = { ...world.env, CONVERGE_DIR: path.join(world.dir, 'removed-secret') };
    const both = synthApp((stack) => {
      new ServiceDefaults(stack, 'svc', { name: 'lazy-svc', protocol: MeshProtocol.HTTP });
      new KvSecret(stack, 'kv', { path: 'lazy/removed', data: { a: '1' } });
    }, 'lazy');
    const first = await runLoading(['apply', '--synth-dir', both, '--auto-approve'], env);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const kvUrl = `${world.env.SECRETS_ADDR}/v1/secret/data/lazy/removed`;
    const headers = { 'x-secrets-token': world.env.SECRETS_TOKEN! };
    expect((await fetch(kvUrl, { headers })).status).toBe(200);

    const r = await runLoading(['apply', '--synth-dir', meshOnly(), '--auto-approve'], env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(kindsOf(r.loaded, 'secrets')).toContain(path.join('dist', 'secrets', 'kv', 'kv-secret.handler.js'));
    expect(kindsOf(r.loaded, 'platform')).toEqual([]);
    expect((await fetch(kvUrl, { headers })).status).toBe(404);
  });
});
