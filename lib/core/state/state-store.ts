import * as crypto from 'crypto';
import { keyCheck, verifyKeyCheck } from '../crypto/state-key';
import { legacyRecords, sealRecord, unbindRecord, VerifiedRecords, verifyDocument } from './record-seal';
import { RecordChange, shareEqualValues, STATE_FORMAT, StateBackend, StateDocument, StateRecord } from './state-model';

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
  /**
   * Opens a stack's state: its key check and every record's authentication are verified (a record
   * changed outside converge is refused, naming it; with `tolerateTampered`, as `state rm` needs, it
   * is kept as it is, never sealed again, so that it can be removed). With `verified` (kept by a
   * long-running caller, `converge watch`), a record read byte for byte as it was verified before is not verified again.
   */
  public static async open(backend: StateBackend, stack: string,
    options: { tolerateTampered?: boolean; migrate?: boolean; verified?: VerifiedRecords } = {}): Promise<StateStore> {
    const doc = await backend.read(stack);
    const what = `the state of stack "${stack}" in ${backend.describe()}`;
    if (doc) verifyKeyCheck(doc.keyCheck, what);
    const tampered = doc ? verifyDocument(doc, what, options.tolerateTampered || options.migrate, doc.stack, options.verified) : [];
    if (doc) shareEqualValues(doc);
    const store = new StateStore(backend, doc ?? { version: STATE_FORMAT, stack, serial: 0, lineage: crypto.randomUUID(), resources: {}, authenticated: true }, !!doc);
    store.tampered = new Set(tampered);
    return store;
  }

  /** Records whose authentication did not match (kept only when tolerated): never sealed again. */
  private tampered = new Set<string>();

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
    this.tampered.delete(address);
    if (record) resources[address] = record = sealRecord(this.doc.stack, address, record); else delete resources[address];
    (this.doc as { serial: number }).serial++;
    this.pending.push({ address, record });
    return this.schedule();
  }

  /**
   * Seals, once, a state written by a release that did not seal records (`converge state migrate`):
   * returns the addresses sealed. Refused for a state that shows it was sealed before.
   */
  public async migrate(): Promise<string[]> {
    // Open for migration only: a state never sealed is refused by every other command.
    const addresses = legacyRecords(this.doc, `the state of stack "${this.doc.stack}" in ${this.backend.describe()}`);
    await this.queue;
    const resources = Object.fromEntries(Object.entries(this.doc.resources).map(([a, r]) => [a, sealRecord(this.doc.stack, a, r)]));
    this.doc = { ...this.doc, serial: this.doc.serial + 1, resources, keyCheck: this.doc.keyCheck ?? keyCheck(), authenticated: true };
    this.tampered = new Set();
    this.queue = this.writeWhole();
    await this.queue;
    return addresses;
  }

  /**
   * Replaces the whole document (state push); `force` overrides a shared backend's lineage check.
   * With `renamedFrom`, the document's records are sealed to that stack and are sealed again to this
   * one (a state pulled from one stack, pushed under another name, by a holder of the key).
   */
  public async replace(doc: StateDocument, force = false, renamedFrom?: string): Promise<void> {
    const what = `the pushed state of stack "${renamedFrom ?? doc.stack}"`;
    verifyKeyCheck(doc.keyCheck, what);
    verifyDocument(doc, what, false, renamedFrom ?? doc.stack);
    const resources = Object.fromEntries(Object.entries(doc.resources).map(([a, r]) => [a, sealRecord(doc.stack, a, renamedFrom ? unbindRecord(r) : r)]));
    doc = { ...doc, resources, keyCheck: doc.keyCheck ?? keyCheck(), authenticated: true };
    this.tampered = new Set();
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
      // The batch closes at the end of this turn of the event loop, not at the first change: the answers
      // that arrived together, their records and the intents of the creates that take their slots, share a write.
      const batch = this.queue.then(endOfTurn).then(async () => {
        this.nextBatch = undefined;
        const changes = this.pending;
        this.pending = [];
        const doc = this.doc;
        // A document without a key check (new, or from an earlier release) is rewritten whole to get one.
        // So is one never sealed (only `state rm` writes one): it stays whole, and refused, until `state migrate`.
        if (this.backend.append && this.persisted && this.doc.keyCheck && this.doc.authenticated && this.appended < this.budget) {
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
    // A state never sealed stays so (and refused) until `converge state migrate`: nothing is sealed on the way.
    (this.doc as { keyCheck?: string }).keyCheck ??= keyCheck();
    // A snapshot: records change in place while a (networked) write is under way.
    const doc = { ...this.doc, resources: { ...this.doc.resources } };
    await this.backend.write(doc);
    this.persisted = true;
    this.appends = 0;
    this.appended = 0;
    this.budget = journalBudget(doc);
  }
}

/** Resolves once the changes made in this turn of the event loop (its callbacks and their microtasks) are made. */
function endOfTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function journalBudget(doc: StateDocument): number {
  return Math.max(COMPACT_EVERY, Object.keys(doc.resources).length);
}
