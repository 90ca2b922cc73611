import * as fs from 'fs';
import * as path from 'path';
import { SecretRef } from '../model';
import { convergeOwnVariable } from '../reserved-variables';
import { convergeDir as stateDir } from './state-key';

/**
 * Where a synthesized secret may be read from. The synthesized output is data written by the app,
 * which in CI is a pull request's code: it names a variable or a file, and converge reads it in the
 * job that holds the credentials. So a source never names converge's own settings, and a file
 * source is a regular file under the app directory or a directory the command line names
 * (`--secret-file-dir`), never under /proc, /sys or /dev, nor converge's own or git's files.
 */

/** The variable naming more directories secret files may be read from (`path.delimiter`-separated), as `--secret-file-dir` does. */
export const SECRET_FILE_DIR_VARIABLE = 'CONVERGE_SECRET_FILE_DIR';
/** The largest secret file read. */
const MAX_SECRET_FILE_BYTES = 1024 * 1024;
/** Never read, wherever they are: the kernel's views of processes and devices. */
const SYSTEM_ROOTS = ['/proc', '/sys', '/dev'];
/** Never read inside an allowed directory: converge's state and key, git's config (a checkout's token). */
const PRIVATE_DIRS = ['.converge', '.git'];

let commandLineDirs: readonly string[] = [];

/** The directories the command line names (`--secret-file-dir`), beside the app directory. */
export function setSecretFileDirs(dirs: readonly string[]): void {
  commandLineDirs = dirs.map((d) => path.resolve(d));
}

/** The app directory: where `cdktf.json` is, from `dir` upwards; else `dir`. */
export function findAppDir(dir: string): string | undefined {
  let d = path.resolve(dir);
  for (;;) {
    if (fs.existsSync(path.join(d, 'cdktf.json'))) return d;
    const up = path.dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}

/** The directories a secret file may be in, as given (not yet resolved). */
export function secretFileDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const fromEnv = (env[SECRET_FILE_DIR_VARIABLE] ?? '').split(path.delimiter).map((d) => d.trim()).filter(Boolean).map((d) => path.resolve(d));
  return [findAppDir(process.cwd()) ?? process.cwd(), ...commandLineDirs, ...fromEnv];
}

/** The real path of `p` (symbolic links resolved), or undefined when it does not exist. */
function realPath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

const within = (child: string, parent: string): boolean => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/** Why a path may never be read as a secret or TLS file (/proc, /sys, /dev, after links); undefined when it may. */
export function systemPathReason(file: string): string | undefined {
  const real = realPath(file) ?? path.resolve(file);
  const root = SYSTEM_ROOTS.find((r) => within(real, r) || within(path.resolve(file), r));
  return root ? `${root} is never read (it holds the processes' environments and the machine's devices)` : undefined;
}

/**
 * The real path of a secret file that may be read, or throws why not: under /proc, /sys or /dev
 * (symbolic links resolved), outside every allowed directory, in converge's or git's own directory,
 * or not a regular file.
 */
export function confinedSecretFile(file: string, env: NodeJS.ProcessEnv = process.env): string {
  const system = systemPathReason(file);
  if (system) throw new Error(system);
  const real = realPath(file);
  if (!real) {
    const e = new Error('ENOENT') as NodeJS.ErrnoException;
    e.code = 'ENOENT';
    throw e;
  }
  const dirs = secretFileDirs(env);
  const roots = dirs.map((d) => realPath(d)).filter((d): d is string => d !== undefined);
  const root = roots.find((r) => within(real, r));
  if (!root) {
    throw new Error(`it is outside the app directory (${dirs[0]}) and every directory named by --secret-file-dir or ${SECRET_FILE_DIR_VARIABLE}` +
      `${real !== path.resolve(file) ? ` (it is ${real})` : ''}; name its directory with --secret-file-dir DIR`);
  }
  const convergeDir = realPath(stateDir());
  const first = path.relative(root, real).split(path.sep)[0];
  if (PRIVATE_DIRS.includes(first) || (convergeDir && within(real, convergeDir))) {
    throw new Error('it is in converge\'s state directory or git\'s, which hold the state key and credentials');
  }
  const st = fs.statSync(real);
  if (!st.isFile()) throw new Error('it is not a regular file');
  if (st.size > MAX_SECRET_FILE_BYTES) throw new Error(`it is larger than ${MAX_SECRET_FILE_BYTES} bytes`);
  return real;
}

/** Why a variable may never be a secret's source; undefined when it may. */
export function forbiddenSecretVariable(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return `"${name.slice(0, 60)}" is not an environment variable name`;
  return convergeOwnVariable(name);
}

/** A secret source in words, never its value: `env DB_PASSWORD`, `file /run/secrets/db`, `a value sealed in the app`. */
export function describeSecretSource(ref: SecretRef): string {
  const s = ref.$secret ?? {};
  if (typeof s.env === 'string') return `env ${s.env.slice(0, 100)}`;
  if (typeof s.file === 'string') return `file ${s.file.slice(0, 200)}`;
  if (s.sealed !== undefined) return 'a value sealed in the app (SecretValue.unsafePlainText)';
  if (typeof s.ref === 'string') return `a reference to ${s.ref.slice(0, 100)}`;
  return 'a secret source';
}
