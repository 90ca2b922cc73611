import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cli, tempDir } from '../support/harness';

// Issue 34 item 4: `converge completion bash|zsh|fish` prints a static script generated from the
// program's commands and options; the bash one completes when bash calls it as it does on Tab.
describe('converge completion', () => {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
  let dir: string;
  beforeAll(() => { dir = tempDir('converge-completion-'); });
  afterAll(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  const script = (shell: string) => {
    const r = cli(['completion', shell], env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const file = path.join(dir, `converge.${shell}`);
    fs.writeFileSync(file, r.stdout);
    return file;
  };
  const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

  test('bash: commands, subcommands and options of the word being completed', () => {
    const file = script('bash');
    const complete = (...words: string[]) => {
      const r = spawnSync('bash', ['-c', `source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _converge; printf '%s\\n' "\${COMPREPLY[@]}"`,
        file, ...words], { encoding: 'utf8', env });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter(Boolean).sort();
    };
    expect(complete('converge', 'st')).toEqual(['state']);
    expect(complete('converge', 'va')).toEqual(['validate']);
    expect(complete('converge', 'state', '')).toEqual(['list', 'migrate', 'pull', 'push', 'rm', 'show']);
    expect(complete('converge', 'plan', '--sy')).toEqual(['--synth-dir', '--synth-env']);
    expect(complete('converge', 'apply', '--js')).toEqual(['--json']);
    expect(complete('converge', 'emulator', '--platform-p')).toEqual(['--platform-port']);
    // Global options before the command, and an option's value, are skipped on the way.
    expect(complete('converge', '--log-level', 'trace', 'state', 'l')).toEqual(['list']);
    expect(complete('converge', 'plan', '--stack', 'dev', '--comp')).toEqual(['--compact']);
    // A hidden option is not offered.
    expect(complete('converge', 'emulator', '--env-')).toEqual([]);
  });

  test('zsh and fish: produced, and they parse where the shell is installed', () => {
    for (const shell of ['zsh', 'fish']) {
      const file = script(shell);
      const text = fs.readFileSync(file, 'utf8');
      expect(text).toContain('validate');
      expect(text).toContain('platform-port');
      // The zsh script is the bash completion behind bashcompinit: bash reads it too.
      if (shell === 'zsh') expect(spawnSync('bash', ['-n', file], { encoding: 'utf8' }).status).toBe(0);
      if (!has(shell)) {
        // eslint-disable-next-line no-console
        console.warn(`${shell} is not installed: its completion script was produced but not parsed (${shell} -n skipped)`);
        continue;
      }
      const r = spawnSync(shell, ['-n', file], { encoding: 'utf8', env });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    }
  });

  test('another shell is refused, naming the three', () => {
    const r = cli(['completion', 'powershell'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });
});
