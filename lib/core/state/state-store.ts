import * as crypto from 'crypto';
import { keyCheck, verifyKeyCheck } from '../crypto/state-key';
import { RecordChange, STATE_FORMAT, StateBackend, StateDocument, StateRecord } from './state-model';

/**
 * Record changes appended between two whole writes of the document: at least this many, and at
 * least as many as the document holds records, so that whole writes cost linear time in all (a
 * fixed count rewrote a 100 000-record document every few hundred operations) and a replay reads
 * a journal no bigger than the document.
 */
const COMPACT_EVERY = 500;

/**
 * A stack's state in memory, written through to its backend after every change. Changes made
 * while a write is in flight are written together by the next one (group commit), so that many
 * parallel operations cost one fsync, and each `put` resolves once its change is durable.
 * Backends with a journal get appends; the whole document is rewritten once the journal holds
 * as many changes as the document holds records (at least a few hundred), and at `flush()`.
 */
export class StateStore {
  public static async open(backend: StateBackend, stack: string): Promise<StateStore> {
    const doc = await backend.read(stack);
    if (doc) verifyKeyCheck(doc.keyCheck, `the state of stack "${stack}" in ${backend.describe()}`);
    return new StateStore(backend, doc ?? { version: STATE_FORMAT, stack, serial: 0, lineage: crypto.randomUUID(), resources: {} }, !!doc);
  }

  private queue: Promise<void> = Promise.resolve();
  private pending: RecordChange[] = [];
  private nextBatch?: Promise<void>;
  private appends = 0;
  /** Changes appended since the last whole write, and how many may be before the next one. */
  private appended = 0;
  private budget: number;

  private constructor(private readonly backend: StateBackend, private doc: StateDocument, private persisted: boolean) {
    this.budget = journalBudget(doc);
  }

  public get serial(): number { return this.doc.serial; }
  public get lineage(): string { return this.doc.lineage; }
  public get document(): StateDocument { return this.doc; }
  public get records(): Readonly<Record<string, StateRecord>> { return this.doc.resources; }

  public record(address: string): StateRecord | undefined {
    return this.doc.resources[address];
  }

  /** Sets (or with undefined removes) one record; resolves when the change is durable. */
  public put(address: string, record: StateRecord | undefined): Promise<void> {
    // In place: copying thousands of records per operation would make an apply quadratic.
    const resources = this.doc.resources as Record<string, StateRecord>;
    if (record) resources[address] = record; else delete resources[address];
    (this.doc as { serial: number }).serial++;
    this.pending.push({ address, record });
    return this.schedule();
  }

  /** Replaces the whole document (state push); `force` overrides a shared backend's lineage check. */
  public async replace(doc: StateDocument, force = false): Promise<void> {
    verifyKeyCheck(doc.keyCheck, `the pushed state of stack "${doc.stack}"`);
    doc = { ...doc, keyCheck: doc.keyCheck ?? keyCheck() };
    await this.queue;
    this.doc = doc;
    this.pending = [];
    this.queue = this.backend.write(doc, { force });
    await this.queue;
    this.persisted = true;
    this.appends = 0;
    this.appended = 0;
    this.budget = journalBudget(doc);
  }

  /** Waits for every write and leaves the backend with one whole document. */
  public async flush(): Promise<void> {
    await this.queue;
    if (this.appends > 0) {
      this.queue = this.queue.then(() => this.writeWhole());
      await this.queue;
    }
  }

  private schedule(): Promise<void> {
    if (!this.nextBatch) {
      const batch = this.queue.then(async () => {
        this.nextBatch = undefined;
        const changes = this.pending;
        this.pending = [];
        const doc = this.doc;
        // A document without a key check (new, or from an earlier release) is rewritten whole to get one.
        if (this.backend.append && this.persisted && this.doc.keyCheck && this.appended < this.budget) {
          await this.backend.append(doc.stack, doc.lineage, doc.serial, changes);
          this.appends++;
          this.appended += changes.length;
        } else {
          await this.writeWhole();
        }
      });
      this.nextBatch = batch;
      this.queue = batch.catch(() => undefined);
    }
    return this.nextBatch;
  }

  private async writeWhole(): Promise<void> {
    // A snapshot: records change in place while a (networked) write is under way.
    (this.doc as { keyCheck?: string }).keyCheck ??= keyCheck();
    const doc = { ...this.doc, resources: { ...this.doc.resources } };
    await this.backend.write(doc);
    this.persisted = true;
    this.appends = 0;
    this.appended = 0;
    this.budget = journalBudget(doc);
  }
}

function journalBudget(doc: StateDocument): number {
  return Math.max(COMPACT_EVERY, Object.keys(doc.resources).length);
}
