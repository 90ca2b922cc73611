import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { writeFileDurably, writeFileDurablyAsync } from '../durable-write';
import { ApiEmulator } from './types';

/** Journal bytes after which the state is compacted into a new snapshot (or 4x the snapshot, when larger). */
const COMPACT_BYTES = 16 * 1024 * 1024;
/**
 * Batches written at once. Each waits for its own fsync, but the file system commits concurrent
 * syncs together: with 4 in flight a batch costs a fraction of one fsync (3 ms here, alone).
 */
const MAX_IN_FLIGHT = 4;
/** Each write is durable when it returns (one call instead of a write and an fsync), where the platform has it. */
const DSYNC = fs.constants.O_DSYNC ?? 0;

const sha256 = (b: Buffer | string): string => crypto.createHash('sha256').update(b).digest('hex');

/** One journal line on its way to disk; acknowledged in order. */
interface Batch {
  readonly target: number;
  done: boolean;
}

/**
 * An API's state on disk: `<name>.json`, a snapshot (what `snapshot()` returns), and
 * `<name>.journal`, the changes acknowledged since, one line per batch.
 *
 * Group commit: the changes made while earlier batches are being written go into the next line;
 * a request is answered only once the line holding its changes and every line before it are on
 * disk (`sync()`), so a crash loses no acknowledged write. Up to `MAX_IN_FLIGHT` lines are written
 * at once, each at its own offset. A line is one batch: a line torn by a crash (and any line after
 * it, all unacknowledged) drops only batches nobody was answered for.
 *
 * The journal's first line names the snapshot it follows (its SHA-256): a journal left behind by
 * a crash between writing a new snapshot and truncating the journal is ignored, never replayed
 * over newer state. Compaction (a new snapshot and an empty journal) runs at start, when the
 * journal outgrows the snapshot, and at a clean stop.
 *
 * An API without change tracking (`takeChanges`) gets a snapshot per batch instead: still one
 * fsync per batch of concurrent writes, but the whole state each time.
 */
export class Journal {
  /** Loads the state of `api` from `dir` (replaying the journal), compacts, and opens the journal. */
  public static open(dir: string, api: ApiEmulator): Journal {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const j = new Journal(dir, api);
    j.load();
    if (api.trackChanges && api.takeChanges && api.applyChanges) {
      j.tracked = true;
      api.trackChanges(() => j.changed());
      api.takeChanges(); // whatever changed until now goes into the snapshot written next
    }
    j.compactSync();
    j.durable = j.seq;
    j.taken = j.seq;
    return j;
  }

  private readonly snapshotFile: string;
  private readonly journalFile: string;
  private tracked = false;
  /** Changes seen / taken into a batch / on disk. */
  private seq = 0;
  private taken = 0;
  private durable = 0;
  private waiters: { seq: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  private readonly batches: Batch[] = [];
  private compacting?: Promise<void>;
  private mustCompact = false;
  private scheduled = false;
  /** Where the next line goes. */
  private position = 0;
  private snapshotBytes = 0;
  private fh?: fs.promises.FileHandle;
  private opening?: Promise<fs.promises.FileHandle>;
  private closed = false;

  private constructor(dir: string, private readonly api: ApiEmulator) {
    this.snapshotFile = path.join(dir, `${api.name}.json`);
    this.journalFile = path.join(dir, `${api.name}.journal`);
  }

  /** Whether the API reports its own changes (else the host calls `changed()` after each write). */
  public get tracksChanges(): boolean {
    return this.tracked;
  }

  /** Something changed: it goes into the next batch. */
  public changed(): void {
    this.seq += 1;
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => { this.scheduled = false; this.pump(); });
  }

  /** Resolves once every change made so far is on disk. */
  public sync(): Promise<void> {
    const target = this.seq;
    if (this.durable >= target) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ seq: target, resolve, reject }));
  }

  /** Writes what is pending, compacts and closes the journal (a clean stop). */
  public async close(): Promise<void> {
    this.closed = true;
    await this.drain();
    while (this.compacting) await this.compacting;
    this.api.takeChanges?.();
    this.taken = this.seq;
    await this.compact();
    this.durable = this.seq;
    this.settle();
    await this.fh?.close();
    this.fh = undefined;
    this.opening = undefined;
  }

  /** Starts batches for what changed, up to `MAX_IN_FLIGHT` at once. */
  private pump(): void {
    while (this.taken < this.seq && !this.compacting && this.batches.length < MAX_IN_FLIGHT) {
      const target = this.seq;
      const changes = this.tracked ? this.api.takeChanges!() : undefined;
      this.taken = target;
      if (changes === undefined || this.mustCompact || this.position > Math.max(COMPACT_BYTES, 4 * this.snapshotBytes)) {
        this.compacting = this.compactAfterDrain(target).finally(() => { this.compacting = undefined; this.pump(); });
        return;
      }
      const batch: Batch = { target, done: false };
      this.batches.push(batch);
      const line = Buffer.from(`${JSON.stringify({ c: changes })}\n`, 'utf8');
      const at = this.position;
      this.position += line.length;
      this.write(line, at).then(() => { batch.done = true; this.advance(); }, (e) => this.fail(e as Error));
    }
  }

  /** Acknowledges batches in order: a batch counts only once every earlier line is on disk too. */
  private advance(): void {
    while (this.batches.length > 0 && this.batches[0].done) this.durable = this.batches.shift()!.target;
    this.settle();
    this.pump();
  }

  /** A write failed: its batch and every later one are unreadable on replay. Fail their requests; compact next. */
  private fail(e: Error): void {
    const upTo = Math.max(...this.batches.map((b) => b.target));
    this.batches.length = 0;
    this.mustCompact = true;
    const failed = this.waiters.filter((w) => w.seq <= upTo);
    this.waiters = this.waiters.filter((w) => w.seq > upTo);
    this.durable = Math.max(this.durable, upTo);
    for (const w of failed) w.reject(new Error(`cannot write the emulator's data directory: ${e.message}`));
    this.pump();
  }

  private settle(): void {
    const done = this.waiters.filter((w) => w.seq <= this.durable);
    this.waiters = this.waiters.filter((w) => w.seq > this.durable);
    for (const w of done) w.resolve();
  }

  private async write(line: Buffer, at: number): Promise<void> {
    // One handle for the batches written at once (each opening its own leaked all but one).
    this.opening ??= fs.promises.open(this.journalFile, fs.constants.O_WRONLY | fs.constants.O_CREAT | DSYNC, 0o600)
      .then((fh) => { this.fh = fh; return fh; });
    const fh = await this.opening;
    await fh.write(line, 0, line.length, at);
    if (!DSYNC) await fh.datasync();
  }

  private async drain(): Promise<void> {
    while (this.batches.length > 0) await new Promise((r) => setImmediate(r));
  }

  private async compactAfterDrain(target: number): Promise<void> {
    try {
      await this.drain();
      await this.compact();
      this.mustCompact = false;
      this.durable = Math.max(this.durable, target);
      this.settle();
    } catch (e) {
      const failed = this.waiters.filter((w) => w.seq <= target);
      this.waiters = this.waiters.filter((w) => w.seq > target);
      this.durable = Math.max(this.durable, target);
      for (const w of failed) w.reject(new Error(`cannot write the emulator's data directory: ${(e as Error).message}`));
    }
  }

  /** A new snapshot, then an empty journal naming it (each through a rename, so a crash leaves one or the other). */
  private async compact(): Promise<void> {
    const body = JSON.stringify(this.api.snapshot());
    await writeFileDurablyAsync(this.snapshotFile, body);
    await this.fh?.close();
    this.fh = undefined;
    this.opening = undefined;
    const header = `${JSON.stringify({ snapshot: sha256(body) })}\n`;
    await writeFileDurablyAsync(this.journalFile, header);
    this.snapshotBytes = body.length;
    this.position = Buffer.byteLength(header);
  }

  private compactSync(): void {
    const body = JSON.stringify(this.api.snapshot());
    writeFileDurably(this.snapshotFile, body);
    const header = `${JSON.stringify({ snapshot: sha256(body) })}\n`;
    writeFileDurably(this.journalFile, header);
    this.snapshotBytes = body.length;
    this.position = Buffer.byteLength(header);
  }

  private load(): void {
    const snap = fs.existsSync(this.snapshotFile) ? fs.readFileSync(this.snapshotFile) : undefined;
    if (snap) this.api.restore(JSON.parse(snap.toString('utf8')));
    if (!fs.existsSync(this.journalFile)) return;
    const lines = fs.readFileSync(this.journalFile, 'utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    let header: { snapshot?: string } | undefined;
    try { header = JSON.parse(lines[0]); } catch { return; }
    if (header?.snapshot !== sha256(snap ?? '')) return; // written before the snapshot now on disk
    if (!this.api.applyChanges) return;
    for (let i = 1; i < lines.length; i++) {
      let batch: { c: unknown[] };
      try {
        batch = JSON.parse(lines[i]);
      } catch (e) {
        // A crash tears at most the lines that were in flight (the last few): none was acknowledged.
        if (lines.length - i <= MAX_IN_FLIGHT) break;
        throw new Error(`${this.journalFile}: line ${i + 1} is not a journal entry (${(e as Error).message})`);
      }
      this.api.applyChanges(batch.c);
    }
  }
}
