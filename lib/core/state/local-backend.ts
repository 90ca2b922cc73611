import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fsyncDir, writeFileDurablyAsync } from '../durable-write';
import { assertReadableFormat, LockedError, LockHandle, LockInfo, RecordChange, StateBackend, StateDocument } from './state-model';

/**
 * State as JSON files under `.converge/stacks/<stack>/`: `state.json` written atomically
 * (the shared durable write: exclusive random temporary file, fsync, rename), `state.journal` with the changes since (one fsynced JSON line
 * per batch; a torn last line is ignored) and `lock.json`, written complete and linked into place
 * exclusively.
 */
export class LocalBackend implements StateBackend {
  constructor(private readonly dir: string) {}

  public describe(): string {
    return `local (${this.dir})`;
  }

  public async read(stack: string): Promise<StateDocument | undefined> {
    const f = this.stateFile(stack);
    if (!fs.existsSync(f)) return undefined;
    // Read asynchronously: the run's first requests (the address checks) go out meanwhile.
    let doc = JSON.parse(await fs.promises.readFile(f, 'utf8')) as StateDocument;
    assertReadableFormat(doc, `the state of stack "${stack}" in ${f}`);
    const j = this.journalFile(stack);
    if (fs.existsSync(j)) {
      // One copy of the records, changed in place line by line (a copy per line is quadratic).
      const resources = { ...doc.resources };
      let serial = doc.serial;
      for (const line of fs.readFileSync(j, 'utf8').split('\n')) {
        let entry: { lineage: string; serial: number; changes: RecordChange[] };
        try { entry = JSON.parse(line); } catch { continue; }
        if (entry.lineage !== doc.lineage || entry.serial <= serial) continue;
        for (const c of entry.changes) { if (c.record) resources[c.address] = c.record; else delete resources[c.address]; }
        serial = entry.serial;
      }
      doc = { ...doc, serial, resources };
    }
    return doc;
  }

  // Asynchronous writes and fsyncs: a synchronous fsync blocked the event loop, so answers of the
  // requests in flight waited and no further changes could join the next batch (group commit).
  // The journal stays open between appends (an open and a close less per batch); a whole write closes it.
  public async append(stack: string, lineage: string, serial: number, changes: RecordChange[]): Promise<void> {
    const line = JSON.stringify({ lineage, serial, changes }) + '\n';
    const fh = await openJournal(this.journalFile(stack));
    try {
      await fh.writeFile(line);
      await fh.sync();
    } catch (e) {
      await closeJournal(this.journalFile(stack));
      throw e;
    }
  }

  public async write(doc: StateDocument): Promise<void> {
    const f = this.stateFile(doc.stack);
    await fs.promises.mkdir(path.dirname(f), { recursive: true });
    await writeFileDurablyAsync(f, JSON.stringify(doc), { mode: 0o600 });
    // The whole document now holds every journalled change.
    await closeJournal(this.journalFile(doc.stack));
    fs.rmSync(this.journalFile(doc.stack), { force: true });
  }

  public async lock(stack: string, operation: string, log: (m: string) => void = () => undefined): Promise<LockHandle> {
    const f = this.lockFile(stack);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    const info: LockInfo = {
      id: crypto.randomUUID(), who: `${os.userInfo().username}@${os.hostname()}`, host: os.hostname(), pid: process.pid,
      operation, since: new Date().toISOString(),
    };
    // Contenders taking over the same stale lock wait for each other a moment, never for a live holder.
    const deadline = Date.now() + TAKEOVER_WAIT_MS;
    while (Date.now() < deadline) {
      if (linkExclusively(f, JSON.stringify(info))) return { info, release: async () => this.release(f, info.id) };
      const holder = this.readLock(f);
      if (holder && !this.isStale(holder)) throw new LockedError(stack, holder);
      if (!holder && !fs.existsSync(f)) continue; // released meanwhile
      if (!holder && !unreadableForLong(f)) {
        // converge never shows a lock file unwritten: a fresh unreadable one is someone's, not free.
        throw new Error(`state of stack "${stack}" is locked: ${f} exists but holds no lock record yet; ` +
          `try again in a few seconds (an unreadable lock file is taken over once ${UNREADABLE_LOCK_STALE_MS / 1000} s old)`);
      }
      if (!this.takeOver(f, stack, holder, log)) await sleep(20);
    }
    throw new Error(`could not take the lock of stack "${stack}": other runs are taking it at the same time`);
  }

  /**
   * Removes a stale (or long unreadable) lock file under a short-lived takeover lock, after
   * checking that it is still the one found stale: two runs taking over the same stale lock
   * must not remove each other's new one.
   */
  private takeOver(f: string, stack: string, stale: LockInfo | undefined, log: (m: string) => void): boolean {
    const guard = `${f}.takeover`;
    if (!linkExclusively(guard, String(process.pid))) {
      // Another run is taking over; a guard left by a run that died mid-takeover is cleared once old.
      if (ageMs(guard) > TAKEOVER_GUARD_STALE_MS) fs.rmSync(guard, { force: true });
      return false;
    }
    try {
      const now = this.readLock(f);
      if (stale ? now?.id !== stale.id : now !== undefined) return true; // it changed meanwhile: look again
      if (stale) {
        log(`converge: taking over a stale lock of stack "${stack}" (${stale.operation} by pid ${stale.pid} on ${stale.host} since ${stale.since}; that process is gone)`);
      } else {
        log(`converge: removing the unreadable lock file ${f} of stack "${stack}"`);
      }
      fs.rmSync(f, { force: true });
      return true;
    } finally {
      fs.rmSync(guard, { force: true });
    }
  }

  public async forceUnlock(stack: string, lockId: string): Promise<void> {
    const f = this.lockFile(stack);
    const holder = this.readLock(f);
    if (!holder) throw new Error(`stack "${stack}" is not locked`);
    if (holder.id !== lockId) throw new Error(`lock id ${lockId} does not match the lock of stack "${stack}" (${holder.id})`);
    fs.rmSync(f, { force: true });
  }

  public async stacks(): Promise<string[]> {
    const root = path.join(this.dir, 'stacks');
    if (!fs.existsSync(root)) return [];
    return fs.readdirSync(root).filter((s) => fs.existsSync(this.stateFile(s))).sort();
  }

  private release(f: string, id: string): void {
    const holder = this.readLock(f);
    if (holder?.id === id) fs.rmSync(f, { force: true });
  }

  private readLock(f: string): LockInfo | undefined {
    try {
      return JSON.parse(fs.readFileSync(f, 'utf8')) as LockInfo;
    } catch {
      return undefined;
    }
  }

  /** A lock is stale when its holder ran on this host and that process no longer exists. */
  private isStale(holder: LockInfo): boolean {
    if (holder.host !== os.hostname()) return false;
    try {
      process.kill(holder.pid, 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }

  private stateFile(stack: string): string {
    return path.join(this.dir, 'stacks', safeName(stack), 'state.json');
  }

  private journalFile(stack: string): string {
    return path.join(this.dir, 'stacks', safeName(stack), 'state.journal');
  }

  private lockFile(stack: string): string {
    return path.join(this.dir, 'stacks', safeName(stack), 'lock.json');
  }
}

/**
 * Open journals by path, for the whole process: whichever backend object rewrites a stack's whole
 * document closes its journal before removing it, so that no append goes to a removed file.
 */
const openJournals = new Map<string, Promise<fs.promises.FileHandle>>();

function openJournal(file: string): Promise<fs.promises.FileHandle> {
  let fh = openJournals.get(file);
  if (!fh) {
    fh = (async () => {
      const created = !fs.existsSync(file);
      const handle = await fs.promises.open(file, 'a', 0o600);
      // A new journal's name is made durable once, or a power loss could lose the file its fsynced lines are in.
      if (created) fsyncDir(path.dirname(file));
      return handle;
    })();
    openJournals.set(file, fh);
    fh.catch(() => openJournals.delete(file));
  }
  return fh;
}

async function closeJournal(file: string): Promise<void> {
  const fh = openJournals.get(file);
  if (!fh) return;
  openJournals.delete(file);
  await (await fh.catch(() => undefined))?.close().catch(() => undefined);
}

/** How long a run keeps trying while others take over the same stale lock. */
const TAKEOVER_WAIT_MS = 15_000;
/** A takeover guard older than this was left by a run that died while taking over. */
const TAKEOVER_GUARD_STALE_MS = 10_000;
/** An unreadable lock file older than this is not a lock being written (converge never shows one unwritten). */
const UNREADABLE_LOCK_STALE_MS = 10_000;

/**
 * Creates `file` with `content` or returns false when it exists. The content is written to a
 * private temporary file first and hard-linked into place: the lock file never exists empty or
 * half-written, and link(2) fails when the target exists, whoever else is trying.
 */
function linkExclusively(file: string, content: string): boolean {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function unreadableForLong(file: string): boolean {
  return ageMs(file) > UNREADABLE_LOCK_STALE_MS;
}

function safeName(stack: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(stack) || stack === '.' || stack === '..') throw new Error(`invalid stack name "${stack}"`);
  return stack;
}
