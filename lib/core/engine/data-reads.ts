import { authenticate } from '../crypto/state-key';
import { DataSourceHandler } from './handler';

/**
 * What a plan keeps of a data source it read, so that the apply uses that read or refuses: the plain
 * outputs (shown, referenced) and an HMAC of all of them under the state key (secrets included,
 * never their values).
 */
export interface ReadRecord {
  readonly outputs: Record<string, unknown>;
  readonly readDigest: string;
}

/** JSON with object keys sorted at every level: a read's digest does not depend on key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** What of a read two reads compare (see `DataSourceHandler.stableForm`). */
export function stableOutputs(h: DataSourceHandler, outputs: Record<string, unknown>): Record<string, unknown> {
  return h.stableForm ? h.stableForm(outputs) : outputs;
}

/** The digest of everything a data source read (sensitive outputs included) that does not change with time alone. */
export function readDigest(h: DataSourceHandler, outputs: Record<string, unknown>): string {
  return authenticate('data source read', canonical(stableOutputs(h, outputs)));
}

/** The outputs that are no secret. */
export function plainOutputs(outputs: Record<string, unknown>, sensitive: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).filter(([k]) => !sensitive.includes(k)));
}

/**
 * What differs between the read a plan kept and a read now: the plain outputs that changed, or
 * "sensitive values"; empty when the reads are the same.
 */
export function readDifference(h: DataSourceHandler, kept: ReadRecord, now: Record<string, unknown>): string[] {
  if (readDigest(h, now) === kept.readDigest) return [];
  const sensitive = h.sensitiveOutputs ?? [];
  const plain = plainOutputs(stableOutputs(h, now), sensitive);
  const was = plainOutputs(stableOutputs(h, kept.outputs), sensitive);
  const keys = new Set([...Object.keys(plain), ...Object.keys(was)]);
  const changed = [...keys].filter((k) => canonical(plain[k]) !== canonical(was[k])).sort();
  return changed.length ? changed : ['sensitive values'];
}
