import * as crypto from 'crypto';
import { STATE_FORMAT, StateBackend, StateDocument, StateRecord } from './state-model';

/**
 * A stack's state in memory, written through to its backend after every single change,
 * one write at a time, each with the next serial.
 */
export class StateStore {
  public static async open(backend: StateBackend, stack: string): Promise<StateStore> {
    const doc = await backend.read(stack);
    return new StateStore(backend, doc ?? { version: STATE_FORMAT, stack, serial: 0, lineage: crypto.randomUUID(), resources: {} });
  }

  private queue: Promise<void> = Promise.resolve();

  private constructor(private readonly backend: StateBackend, private doc: StateDocument) {}

  public get serial(): number { return this.doc.serial; }
  public get lineage(): string { return this.doc.lineage; }
  public get document(): StateDocument { return this.doc; }
  public get records(): Readonly<Record<string, StateRecord>> { return this.doc.resources; }

  public record(address: string): StateRecord | undefined {
    return this.doc.resources[address];
  }

  /** Sets (or with undefined removes) one record and persists. */
  public put(address: string, record: StateRecord | undefined): Promise<void> {
    const resources = { ...this.doc.resources };
    if (record) resources[address] = record; else delete resources[address];
    this.doc = { ...this.doc, serial: this.doc.serial + 1, resources };
    const snapshot = this.doc;
    this.queue = this.queue.then(() => this.backend.write(snapshot));
    return this.queue;
  }

  /** Replaces the whole document (state push); the serial still moves forward. */
  public replace(doc: StateDocument): Promise<void> {
    this.doc = doc;
    this.queue = this.queue.then(() => this.backend.write(doc));
    return this.queue;
  }

  public flush(): Promise<void> {
    return this.queue;
  }
}
