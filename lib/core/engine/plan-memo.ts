import * as crypto from 'crypto';
import { DesiredResource } from '../model';
import { StateRecord } from '../state/state-model';
import { Observed } from './handler';
import { PlanItem } from './plan-model';
import { RefLookup, resolveSpec, ResolvedSpec } from './resolve-spec';

/**
 * What a long-running reconciler (`converge watch`) keeps from one plan of a stack to the next, so
 * that an object whose declaration, state record and API answer are all as they were last time is
 * not resolved and diffed again: its plan item is the one it had. Planning one object is a pure
 * function of those three (and of its kind), so a hit gives exactly what a diff would.
 *
 * - A spec is resolved again unless it is the same synthesized spec (the same object: the app was not
 *   read again), under the same salt, and its last resolution read no reference and no secret (a
 *   reference's value, or a secret file's content, may change while the app does not).
 * - A diff is skipped when the resolved spec, the state record (its `mac`, which authenticates
 *   every field of it) and a digest of the answer are those of the last diff of the address.
 */
export class PlanMemo {
  private readonly resolutions = new Map<string, { spec: Record<string, unknown>; path: string; salt?: string; resolved: ResolvedSpec }>();
  private readonly items = new Map<string, { key: string; item: PlanItem }>();
  private readonly digests = new WeakMap<ResolvedSpec, string>();
  private counts = { diffed: 0, skipped: 0 };

  /** The resolved spec of the resource: last time's when nothing it depends on can have changed. */
  public resolve(address: string, r: DesiredResource, lookup: RefLookup, salt?: string): ResolvedSpec {
    const last = this.resolutions.get(address);
    if (last && last.spec === r.spec && last.path === r.path && last.salt === salt) return last.resolved;
    let looked = false;
    const resolved = resolveSpec(r.spec, r.path, (a, attr, stack) => { looked = true; return lookup(a, attr, stack); }, salt);
    if (!looked && !resolved.secretPaths.size) this.resolutions.set(address, { spec: r.spec, path: r.path, salt, resolved });
    else this.resolutions.delete(address);
    return resolved;
  }

  /** The plan item of a managed object read from the API: last time's when its inputs are the same, else `diff()`'s. */
  public item(address: string, kind: string, resolved: ResolvedSpec, rec: StateRecord, observed: Observed, diff: () => PlanItem): PlanItem {
    const key = rec.mac ? `${kind}|${rec.mac}|${this.digestOf(resolved)}|${digest(observed)}` : undefined;
    const last = this.items.get(address);
    if (key && last?.key === key) {
      this.counts.skipped++;
      return last.item;
    }
    this.counts.diffed++;
    const item = diff();
    if (key) this.items.set(address, { key, item }); else this.items.delete(address);
    return item;
  }

  /** Diffs made and skipped since the last call. */
  public takeCounts(): { diffed: number; skipped: number } {
    const c = this.counts;
    this.counts = { diffed: 0, skipped: 0 };
    return c;
  }

  /** Forgets everything: the next plan resolves and diffs every object. */
  public clear(): void {
    this.resolutions.clear();
    this.items.clear();
  }

  private digestOf(resolved: ResolvedSpec): string {
    let d = this.digests.get(resolved);
    if (d === undefined) {
      d = digest([resolved.value, resolved.stored, resolved.hmacs, [...resolved.secretPaths].sort(), resolved.hasUnknown, resolved.unknownRefs ?? []]);
      this.digests.set(resolved, d);
    }
    return d;
  }
}

/** Node's one-shot hash (20.12 and later; not in this @types/node), 2.5 times faster than a Hash object for a short text. */
const oneShot = (crypto as unknown as { hash?: (algorithm: string, data: string, encoding: 'base64') => string }).hash;

/** A digest, not the value: what is kept between plans holds no secret of an answer or a spec. */
function digest(v: unknown): string {
  const text = JSON.stringify(v) ?? '';
  return oneShot ? oneShot('sha256', text, 'base64') : crypto.createHash('sha256').update(text).digest('base64');
}
