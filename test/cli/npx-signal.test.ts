import { ChildProcess, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { ROOT, tempDir } from '../support/harness';

/**
 * `npx converge …` as a user runs it: npm starts `sh -c converge …`, which starts node. A signal to npx
 * reaches only that shell, which ends without passing it on; converge must still end (issue 34 item 2).
 */

/** An app directory whose node_modules holds this checkout, as `npm install` of the package would. */
function appDir(): string {
  const dir = tempDir('converge-npx-');
  fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'cdk-converge'));
  fs.symlinkSync('../cdk-converge/bin/converge', path.join(dir, 'node_modules', '.bin', 'converge'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'npx-app', version: '1.0.0', dependencies: { 'cdk-converge': '*' } }));
  return dir;
}

/**
 * The pids of the processes running converge's CLI in `dir` (this test's own app directory: never another test's
 * emulator, nor another run's on the same machine, which this test must neither wait for nor kill).
 */
function convergeProcesses(dir: string): number[] {
  const ps = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => l.includes('dist/cli/main.js')).map((l) => Number(l.trim().split(/\s+/)[0]))
    .filter((pid) => { try { return fs.readlinkSync(`/proc/${pid}/cwd`) === fs.realpathSync(dir); } catch { return false; } });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

async function until<T>(what: string, f: () => T | undefined | Promise<T | undefined>, ms = 240_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a signal to npx converge reaches converge', () => {
  let npx: ChildProcess | undefined;
  let dir = '';
  afterEach(() => { for (const pid of convergeProcesses(dir)) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } npx?.kill('SIGKILL'); });

  test('SIGTERM to npx stops the emulator it started', async () => {
    const signal = 'SIGTERM';
    dir = appDir();
    npx = spawn('npx', ['--no-install', 'converge', 'emulator', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0'],
      { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    npx.stdout!.on('data', (d) => { out += d; });
    const port = await until('the emulator', () => /PLATFORM_ADDRESS=http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]).then(Number);
    const [pid] = await until('its node process', () => { const p = convergeProcesses(dir); return p.length ? p : undefined; });
    expect(await canConnect(port)).toBe(true);
    npx.kill(signal);
    await until('converge to end', () => { try { process.kill(pid, 0); return false; } catch { return true; } });
    expect(await canConnect(port)).toBe(false);
  });
});
