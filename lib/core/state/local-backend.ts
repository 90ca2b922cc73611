import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LockedError, LockHandle, LockInfo, RecordChange, StateBackend, StateDocument } from './state-model';

/**
 * State as JSON files under `.converge/stacks/<stack>/`: `state.json` written atomically
 * (temporary file, fsync, rename), `state.journal` with the changes since (one fsynced JSON line
 * per batch; a torn last line is ignored) and `lock.json` created exclusively.
 */
export class LocalBackend implements StateBackend {
  constructor(private readonly dir: string) {}

  public describe(): string {
    return `local (${this.dir})`;
  }

  public async read(stack: string): Promise<StateDocument | undefined> {
    const f = this.stateFile(stack);
    if (!fs.existsSync(f)) return undefined;
    let doc = JSON.parse(fs.readFileSync(f, 'utf8')) as StateDocument;
    const j = this.journalFile(stack);
    if (fs.existsSync(j)) {
      for (const line of fs.readFileSync(j, 'utf8').split('\n')) {
        let entry: { lineage: string; serial: number; changes: RecordChange[] };
        try { entry = JSON.parse(line); } catch { continue; }
        if (entry.lineage !== doc.lineage || entry.serial <= doc.serial) continue;
        const resources = { ...doc.resources };
        for (const c of entry.changes) { if (c.record) resources[c.address] = c.record; else delete resources[c.address]; }
        doc = { ...doc, serial: entry.serial, resources };
      }
    }
    return doc;
  }

  public async append(stack: string, lineage: string, serial: number, changes: RecordChange[]): Promise<void> {
    const fd = fs.openSync(this.journalFile(stack), 'a', 0o600);
    try {
      fs.writeSync(fd, JSON.stringify({ lineage, serial, changes }) + '\n');
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  public async write(doc: StateDocument): Promise<void> {
    const f = this.stateFile(doc.stack);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    const tmp = `${f}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeSync(fd, JSON.stringify(doc));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, f);
    // The whole document now holds every journalled change.
    fs.rmSync(this.journalFile(doc.stack), { force: true });
  }

  public async lock(stack: string, operation: string, log: (m: string) => void = () => undefined): Promise<LockHandle> {
    const f = this.lockFile(stack);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    const info: LockInfo = {
      id: crypto.randomUUID(), who: `${os.userInfo().username}@${os.hostname()}`, host: os.hostname(), pid: process.pid,
      operation, since: new Date().toISOString(),
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(f, JSON.stringify(info), { flag: 'wx', mode: 0o600 });
        return { info, release: async () => this.release(f, info.id) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const holder = this.readLock(f);
        if (holder && this.isStale(holder)) {
          log(`converge: taking over a stale lock of stack "${stack}" (${holder.operation} by pid ${holder.pid} on ${holder.host} since ${holder.since}; that process is gone)`);
          fs.rmSync(f, { force: true });
          continue;
        }
        if (!holder) { fs.rmSync(f, { force: true }); continue; }
        throw new LockedError(stack, holder);
      }
    }
    throw new Error(`could not take the lock of stack "${stack}"`);
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

function safeName(stack: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(stack) || stack === '.' || stack === '..') throw new Error(`invalid stack name "${stack}"`);
  return stack;
}
