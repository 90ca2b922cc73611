import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { isAlive, parseEnvFile } from '../../lib/cli/emulator-env-file';
import { CLI, tempDir } from '../support/harness';

// `converge emulator --detach` on a shared host: its log must hold no token and must not be a file
// anyone could have placed (a predictable name in $TMPDIR, opened through symlinks, in append mode).
const PORTS = ['--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0'];

const started: number[] = [];
afterEach(() => { for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGTERM'); });

function detach(args: string[], tmp: string) {
  const r = spawnSync(CLI, ['emulator', ...PORTS, ...args, '--detach'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TMPDIR: tmp }, encoding: 'utf8', timeout: 240_000,
  });
  const said = r.stdout + r.stderr;
  const envFile = /env file (\S+),/.exec(said)?.[1];
  const vars = envFile && fs.existsSync(envFile) ? parseEnvFile(fs.readFileSync(envFile, 'utf8')) : {};
  if (vars.CONVERGE_EMULATOR_PID) started.push(Number(vars.CONVERGE_EMULATOR_PID));
  return { r, said, vars, log: /, log (\S+)/.exec(said)?.[1] };
}

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const tokensOf = (vars: Record<string, string>) => [vars.PLATFORM_TOKEN, vars.SECRETS_TOKEN, vars.MESH_HTTP_TOKEN];

describe('converge emulator --detach: its log and data directory', () => {
  test('without --data-dir: the log is 0600 in a fresh 0700 directory and holds no token', async () => {
    const tmp = tempDir('converge-tmpdir-');
    const { r, vars, log } = detach([], tmp);
    expect(r.status).toBe(0);
    expect(tokensOf(vars).every(Boolean)).toBe(true);
    expect(log).toBeDefined();
    // Not a predictable name directly in $TMPDIR: a directory of its own, made exclusively.
    expect(path.dirname(path.dirname(log!))).toBe(fs.realpathSync(tmp));
    expect(mode(path.dirname(log!))).toBe(0o700);
    expect(mode(log!)).toBe(0o600);
    const text = fs.readFileSync(log!, 'utf8');
    for (const t of tokensOf(vars)) expect(text).not.toContain(t);
  });

  test('--data-dir is created 0700; the log in it is 0600 and holds no token', async () => {
    const dataDir = path.join(tempDir('converge-data-'), 'emu');
    const { r, vars, log } = detach(['--data-dir', dataDir], tempDir('converge-tmpdir-'));
    expect(r.status).toBe(0);
    expect(mode(dataDir)).toBe(0o700);
    expect(log).toBe(path.join(dataDir, 'emulator.log'));
    expect(mode(log!)).toBe(0o600);
    const text = fs.readFileSync(log!, 'utf8');
    for (const t of tokensOf(vars)) expect(text).not.toContain(t);
  });

  test('a symbolic link planted as the log is not followed', async () => {
    const base = tempDir('converge-data-');
    const dataDir = path.join(base, 'emu');
    fs.mkdirSync(dataDir, { mode: 0o700 });
    const victim = path.join(base, 'victim');
    fs.writeFileSync(victim, 'untouched\n');
    fs.symlinkSync(victim, path.join(dataDir, 'emulator.log'));
    const { r, said } = detach(['--data-dir', dataDir], tempDir('converge-tmpdir-'));
    expect(r.status).toBe(1);
    expect(said).toMatch(/emulator\.log.*symbolic link/);
    expect(fs.readFileSync(victim, 'utf8')).toBe('untouched\n');
  });
});
