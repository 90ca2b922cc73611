import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { isAlive, parseEnvFile } from '../../lib/cli/emulator-env-file';
import { CLI, cliAsync, tempDir } from '../support/harness';

// `init`'s "Next:" line run twice: the second `converge emulator --write-env F --detach` must leave the
// running emulator and its file (its tokens) alone, and say what to do.
const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TMPDIR: process.env.TMPDIR };
const PORTS = ['--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0'];

describe('a second converge emulator on the same env file', () => {
  let dir: string;
  let pid = 0;
  beforeAll(() => { dir = tempDir('converge-emu-twice-'); });
  afterAll(() => {
    if (pid && isAlive(pid)) process.kill(pid, 'SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test.each([['--detach'], ['(foreground)']])('%s: refused, naming the running one; its file stays and stop still works', async (mode) => {
    const file = path.join(dir, 'emu.env');
    let r = await cliAsync(['emulator', ...PORTS, '--write-env', file, '--detach'], env, dir);
    expect(r.status).toBe(0);
    const before = fs.readFileSync(file, 'utf8');
    pid = Number(parseEnvFile(before).CONVERGE_EMULATOR_PID);

    // Bounded: a foreground emulator that wrongly started would serve until stopped.
    const second = spawnSync(CLI, ['emulator', ...PORTS, '--write-env', file, ...(mode === '--detach' ? ['--detach'] : [])],
      { env, cwd: dir, encoding: 'utf8', timeout: 240_000 });
    r = { status: second.status, stdout: second.stdout, stderr: second.stderr };
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`an emulator is already running (pid ${pid}) and wrote ${file}: stop it (converge emulator stop ${file}), or start another with another --write-env file and port 0`);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(isAlive(pid)).toBe(true);

    r = await cliAsync(['emulator', 'stop', file], env, dir);
    expect(r.stdout).toContain(`converge emulator stopped (pid ${pid})`);
    expect(r.status).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
  });
});
