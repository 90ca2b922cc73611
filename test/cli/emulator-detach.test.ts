import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { isAlive, parseEnvFile, writeEnvFileAtomically } from '../../lib/cli/emulator-env-file';
import { cliAsync, CLI, ROOT, tempDir } from '../support/harness';

// A newcomer's first commands: `npx converge emulator --write-env FILE` (Node 20 reads `--env-file`
// itself, also inside npx), `--detach` that returns once the APIs listen, `wait FILE` and `stop FILE`.
const PORTS = ['--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0'];
const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TMPDIR: process.env.TMPDIR };

/** A project whose node_modules hold converge as `npm install` would: the package and its bin link. */
function projectWithConverge(): string {
  const dir = tempDir('converge-npx-');
  fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "npx-user", "version": "1.0.0", "private": true }\n');
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'cdk-converge'));
  fs.symlinkSync(path.join('..', 'cdk-converge', 'bin', 'converge'), path.join(dir, 'node_modules', '.bin', 'converge'));
  return dir;
}

const ping = (vars: Record<string, string>) =>
  fetch(`${vars.PLATFORM_ADDRESS}/api/v2/organizations`, { headers: { authorization: `Bearer ${vars.PLATFORM_TOKEN}` } });

/** Emulators started by a test, stopped after it even when it failed. */
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGTERM');
});

const npx = (args: string[], cwd: string) => spawnSync('npx', ['--no', 'converge', ...args], { cwd, env, encoding: 'utf8', timeout: 240_000 });

describe('converge emulator through npx, --detach, wait and stop', () => {
  test('npx converge emulator --write-env FILE --detach returns once ready; stop ends it and removes FILE', async () => {
    const dir = projectWithConverge();
    const r = npx(['emulator', ...PORTS, '--write-env', 'emu.env', '--detach'], dir);
    expect(r.status).toBe(0);
    const file = path.join(dir, 'emu.env');
    const vars = parseEnvFile(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(vars).sort()).toEqual(['CONVERGE_EMULATOR_PID', 'MESH_HTTP_ADDR', 'MESH_HTTP_TOKEN', 'PLATFORM_ADDRESS', 'PLATFORM_TOKEN', 'SECRETS_ADDR', 'SECRETS_TOKEN']);
    const pid = Number(vars.CONVERGE_EMULATOR_PID);
    expect(r.stdout).toContain(`MESH_HTTP_ADDR=${vars.MESH_HTTP_ADDR}\n`);
    expect(r.stdout).toContain(`kill ${pid}`);
    expect(r.stdout).toContain(`converge emulator stop ${file}`);
    started.push(pid);
    // Ready means answering, as soon as the command returned.
    expect((await ping(vars)).status).toBe(200);

    expect(npx(['emulator', 'wait', 'emu.env', '--timeout', '5'], dir).status).toBe(0);
    const stop = npx(['emulator', 'stop', 'emu.env'], dir);
    expect(stop.status).toBe(0);
    expect(isAlive(pid)).toBe(false);
    expect(fs.existsSync(file)).toBe(false);
  });

  test('wait FILE returns once a background emulator has written it; SIGTERM removes the file', async () => {
    const dir = tempDir('converge-wait-');
    const file = path.join(dir, 'emu.env');
    const emu = spawn(CLI, ['emulator', ...PORTS, '--write-env', file], { env, stdio: 'ignore' });
    started.push(emu.pid!);
    const exited = new Promise((r) => emu.once('exit', r));
    const r = await cliAsync(['emulator', 'wait', file, '--timeout', '30'], env);
    expect(r.status).toBe(0);
    const vars = parseEnvFile(fs.readFileSync(file, 'utf8'));
    expect(Number(vars.CONVERGE_EMULATOR_PID)).toBe(emu.pid);
    expect((await ping(vars)).status).toBe(200);
    emu.kill('SIGTERM');
    await exited;
    expect(fs.existsSync(file)).toBe(false);
  });

  test('the old --env-file still works through bin/converge', async () => {
    const dir = tempDir('converge-wait-');
    const file = path.join(dir, 'old.env');
    const r = await cliAsync(['emulator', ...PORTS, '--env-file', file, '--detach'], env);
    expect(r.status).toBe(0);
    started.push(Number(parseEnvFile(fs.readFileSync(file, 'utf8')).CONVERGE_EMULATOR_PID));
    expect((await cliAsync(['emulator', 'stop', file], env)).status).toBe(0);
  });

  test('wait on a file left by an emulator that is gone times out; --detach reports a start that failed', async () => {
    const dir = tempDir('converge-wait-');
    const stale = path.join(dir, 'stale.env');
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    fs.writeFileSync(stale, `PLATFORM_ADDRESS=http://127.0.0.1:1\nSECRETS_ADDR=http://127.0.0.1:1\nMESH_HTTP_ADDR=http://127.0.0.1:1\nCONVERGE_EMULATOR_PID=${dead}\n`);
    let r = await cliAsync(['emulator', 'wait', stale, '--timeout', '1'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no running emulator wrote .*stale\.env within 1s/);

    const busy = net.createServer();
    await new Promise<void>((res) => busy.listen(0, '127.0.0.1', res));
    const port = String((busy.address() as net.AddressInfo).port);
    r = await cliAsync(['emulator', '--platform-port', port, '--secrets-port', '0', '--mesh-port', '0', '--write-env', path.join(dir, 'x.env'), '--detach'], env);
    busy.close();
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/the emulator stopped before it was ready/);
    expect(r.stderr).toMatch(/EADDRINUSE|in use/);
  });

  test('an unknown word after emulator is refused, not taken for a start', () => {
    const r = spawnSync(CLI, ['emulator', 'wiat', 'x.env', ...PORTS], { env, encoding: 'utf8', timeout: 240_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/too many arguments for 'emulator'/);
  });

  test('the env file is written whole (temporary file renamed), mode 0600', () => {
    const dir = tempDir('converge-wait-');
    const file = path.join(dir, 'a.env');
    writeEnvFileAtomically(file, 'A=1\n');
    writeEnvFileAtomically(file, 'A=2\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('A=2\n');
    expect(fs.readdirSync(dir)).toEqual(['a.env']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
