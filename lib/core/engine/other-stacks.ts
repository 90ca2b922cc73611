import { verifyKeyCheck } from '../crypto/state-key';
import { openSensitiveOutputs, verifyDocument } from '../state/record-seal';
import { DesiredStack, isAttrRef, isSecretRef } from '../model';
import { StateBackend, StateDocument } from '../state/state-model';
import { topKey } from './diff';
import { PlanItem, READ_DURING_APPLY, StackPlan } from './plan-model';
import { resourceHandler } from './registry';
import { attrValue, RefError, SensitiveValue, UNKNOWN } from './resolve-spec';

/** What a run read of another stack's state (null: the stack had no state). */
export interface StackSnapshot {
  readonly lineage: string;
  readonly serial: number;
}

/** The cross-stack references of a spec, as `stack/address.attr`, sorted. */
export function crossStackRefs(spec: unknown): string[] {
  // A synthesized spec does not change during a run, and the plan, the apply and the reads of other stacks each ask.
  const known = spec !== null && typeof spec === 'object' ? refsOfSpec.get(spec) : undefined;
  if (known) return [...known];
  const refs = collectCrossStackRefs(spec);
  if (spec !== null && typeof spec === 'object') refsOfSpec.set(spec, refs);
  return [...refs];
}

const refsOfSpec = new WeakMap<object, readonly string[]>();

function collectCrossStackRefs(spec: unknown): string[] {
  const out = new Set<string>();
  addCrossStackRefs(spec, out);
  return out.size ? [...out].sort() : [];
}

function addCrossStackRefs(v: unknown, out: Set<string>): void {
  if (v === null || typeof v !== 'object') return;
  if (isAttrRef(v)) { if (v.stack !== undefined) out.add(`${v.stack}/${v.$ref}.${v.attr}`); return; }
  if (Array.isArray(v)) v.forEach((x) => addCrossStackRefs(x, out));
  else for (const x of Object.values(v)) addCrossStackRefs(x, out);
}

/** The other stacks a stack reads values from: its synthesized stack dependencies and the stacks its references name. */
export function stacksReadBy(desired: DesiredStack): string[] {
  const out = new Set(Object.keys(desired.dependsOnStacks ?? {}));
  for (const r of Object.values(desired.resources)) for (const ref of crossStackRefs(r.spec)) out.add(ref.slice(0, ref.indexOf('/')));
  out.delete(desired.stack);
  return [...out].sort();
}

const containsSecret = (v: unknown): boolean => isSecretRef(v) || (Array.isArray(v) ? v.some(containsSecret)
  : v !== null && typeof v === 'object' && Object.values(v).some(containsSecret));

/**
 * The states of the other stacks a run reads values from (cross-stack references), as cdktf reads a
 * remote state: read-only, from the same backend, without their locks. Each state is read once per
 * stack run, as one consistent snapshot (a whole document at one serial: the local backend writes by
 * rename and journals whole batches, PostgreSQL reads one row), so that apply writes what the plan saw.
 *
 * When one run plans several stacks, the plan of a producer that is not applied yet is registered
 * (`planned`): what it creates or changes is "known after apply" for its consumers. Once it is
 * applied (`applied`), its state is read again, so that a consumer planned after it sees the values
 * its apply wrote.
 */
export class OtherStacks {
  private readonly docs = new Map<string, StateDocument | undefined>();
  private readonly pending = new Map<string, Map<string, PlanItem>>();

  /** Reads the state of each of `stacks` not read yet. */
  public async load(backend: StateBackend, stacks: Iterable<string>): Promise<void> {
    for (const s of stacks) {
      if (this.docs.has(s)) continue;
      const doc = await backend.read(s);
      // Sensitive outputs are decrypted with this run's state key: a state written under another is refused.
      if (doc) verifyKeyCheck(doc.keyCheck, `the state of stack "${s}" in ${backend.describe()}`);
      // Its records are authenticated, and their ciphertexts bound to their places, as this stack's own.
      if (doc) verifyDocument(doc, `the state of stack "${s}" in ${backend.describe()}`);
      this.docs.set(s, doc);
    }
  }

  /** A producer's plan made in this run and not applied (yet): what it changes is unknown to its consumers. */
  public planned(plan: StackPlan): void {
    this.pending.set(plan.stack, new Map(plan.items.map((i) => [i.address, i])));
  }

  /** A producer applied in this run: its state is read again by the next `load`. */
  public applied(stack: string): void {
    this.pending.delete(stack);
    this.docs.delete(stack);
  }

  /** Lineage and serial of the states read for `stacks` (null: no state). */
  public snapshots(stacks: readonly string[]): Record<string, StackSnapshot | null> {
    return Object.fromEntries(stacks.map((s) => {
      const doc = this.doc(s);
      return [s, doc ? { lineage: doc.lineage, serial: doc.serial } : null];
    }));
  }

  /**
   * `attr` of the object at `address` of `stack`: UNKNOWN when a plan of this run changes it, a
   * SensitiveValue for a sensitive output; a RefError when the stack has not applied it.
   */
  public lookup(stack: string, address: string, attr: string): unknown {
    const ref = `${stack}/${address}.${attr}`;
    const item = this.pending.get(stack)?.get(address);
    if (item) {
      const v = pendingValue(item, attr);
      if (v !== undefined) return v;
    }
    const rec = this.doc(stack)?.resources[address];
    const notYet = () => new RefError(`refers to ${ref}, which stack ${stack} has not applied yet (apply it first)`);
    if (!rec || rec.status !== 'created') {
      if (item) return UNKNOWN;
      throw notYet();
    }
    // One key of a map output (`data.password`) as within a stack.
    const plain = attrValue(rec.outputs, attr);
    if (plain !== undefined) return plain;
    const secret = rec.sensitiveOutputs ? attrValue(openSensitiveOutputs(rec), attr) : undefined;
    if (secret !== undefined) return new SensitiveValue(secret, ref);
    if (!rec.dataSource && attr in rec.spec) {
      const v = rec.spec[attr];
      if (containsSecret(v)) throw new RefError(`refers to ${ref}, a secret input of stack ${stack}: give this construct the secret itself (a SecretValue)`);
      return v;
    }
    if (item) return UNKNOWN;
    throw notYet();
  }

  private doc(stack: string): StateDocument | undefined {
    if (!this.docs.has(stack)) throw new Error(`the state of stack ${stack} was not read before its values were looked up`);
    return this.docs.get(stack);
  }
}

/** A value as a producer's plan of this run leaves it: UNKNOWN where its apply changes it, undefined where state tells. */
function pendingValue(item: PlanItem, attr: string): unknown {
  // A data source whose read state holds already gives what state holds; one read during the apply, one
  // that reads other values than state holds (recorded by the apply), one issued again (a renewed
  // credential), or one never read yet (no state: see lookup), is known after apply.
  if (item.dataSource) return item.reason === READ_DURING_APPLY || item.issues || item.stateChanges?.length ? UNKNOWN : undefined;
  if (item.action === 'create' || item.action === 'replace') return UNKNOWN;
  if (item.action === 'update' || item.action === 'adopt') {
    if (resourceHandler(item.kind).outputsChangedByUpdate?.includes(attr)) return UNKNOWN;
    if (item.changes.some((c) => topKey(c.path) === attr)) return UNKNOWN;
  }
  return item.outputs?.[attr];
}

/** A value of another stack (a cross-stack reference), from the states read before the plan or apply. */
export function otherStack(other: OtherStacks | undefined, stack: string, address: string, attr: string): unknown {
  if (!other) throw new RefError(`refers to ${stack}/${address}.${attr}, in another stack, whose state this command does not read`);
  return other.lookup(stack, address, attr);
}
