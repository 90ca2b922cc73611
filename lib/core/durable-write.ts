import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/**
 * The one way converge replaces a file (local state, plan files, the emulator's journal and
 * snapshots, the emulator's env file): written complete to a temporary file beside it, fsynced,
 * renamed over it, and the directory fsynced, so that a reader (or a crash) sees the old file or
 * the new one, never half of one.
 *
 * The temporary file is created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW) under a random name:
 * in a directory others can write, a file or symbolic link planted at the name converge would
 * use is refused, never written through (it would receive tokens or state), and its mode is
 * exactly `mode` whatever the umask. The rename replaces a planted link itself, never its target.
 */

/** Options of a durable write. */
export interface DurableWriteOptions {
  /** Mode of the new file. @default 0o600 */
  readonly mode?: number;
}

const EXCLUSIVE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** A temporary name beside `file`: hidden, random (never predictable from the pid). */
function temporaryName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(12).toString('hex')}.tmp`);
}

/** Makes a rename durable; a no-op where directories cannot be opened or synced (Windows, some file systems). */
export function fsyncDir(dir: string): void {
  let fd: number;
  try { fd = fs.openSync(dir, 'r'); } catch { return; }
  try { fs.fsyncSync(fd); } catch { /* not supported here */ } finally { fs.closeSync(fd); }
}

/**
 * Creates `file` with `data` unless it exists (then answers false): written complete to an
 * exclusive temporary file and hard-linked into place, so that nobody sees it half written and
 * of several writers at once the first wins (the state key file).
 */
export function createFileExclusively(file: string, data: string, options: DurableWriteOptions = {}): boolean {
  const target = path.resolve(file);
  const mode = options.mode ?? 0o600;
  const tmp = temporaryName(target);
  const fd = fs.openSync(tmp, EXCLUSIVE, mode);
  try {
    try {
      fs.fchmodSync(fd, mode);
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.linkSync(tmp, target);
    fsyncDir(path.dirname(target));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Replaces `file` with `data` durably (see above). */
export function writeFileDurably(file: string, data: string | Uint8Array, options: DurableWriteOptions = {}): void {
  const target = path.resolve(file);
  const mode = options.mode ?? 0o600;
  const tmp = temporaryName(target);
  const fd = fs.openSync(tmp, EXCLUSIVE, mode);
  try {
    try {
      fs.fchmodSync(fd, mode); // the umask may have narrowed it: exact
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fsyncDir(path.dirname(target));
}

/** `writeFileDurably` without blocking the event loop on the write and the fsync. */
export async function writeFileDurablyAsync(file: string, data: string | Uint8Array, options: DurableWriteOptions = {}): Promise<void> {
  const target = path.resolve(file);
  const mode = options.mode ?? 0o600;
  const tmp = temporaryName(target);
  const fh = await fs.promises.open(tmp, EXCLUSIVE, mode);
  try {
    try {
      await fh.chmod(mode);
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.promises.rename(tmp, target);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  fsyncDir(path.dirname(target));
}
