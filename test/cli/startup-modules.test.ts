import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, tempDir } from '../support/harness';

/**
 * What a command loads is what it needs (issue 37, start-up): `--version`, `--help` and `completion` load no
 * command, no API's kinds and no HTTP client; `plan` loads no emulator and no other command's code. Read from the
 * module cache of the real CLI (dist/), at exit.
 */
const MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');

function modulesLoadedBy(args: string[], env: NodeJS.ProcessEnv = {}): string[] {
  const dir = tempDir('converge-modules-');
  const out = path.join(dir, 'modules.json');
  const hook = path.join(dir, 'hook.js');
  fs.writeFileSync(hook, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache))));`);
  spawnSync(process.execPath, ['-r', hook, MAIN, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, encoding: 'utf8' });
  const loaded = (JSON.parse(fs.readFileSync(out, 'utf8')) as string[]).map((m) => path.relative(ROOT, m));
  fs.rmSync(dir, { recursive: true, force: true });
  return loaded;
}

const under = (loaded: string[], prefix: string) => loaded.filter((m) => m.startsWith(prefix));

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
  // The kinds are registered: plan needs them.
  expect(under(loaded, 'dist/secrets/').length).toBeGreaterThan(0);
});
