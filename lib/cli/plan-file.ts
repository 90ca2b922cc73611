import * as fs from 'fs';
import { PLAN_FORMAT_VERSION, StackPlan } from '../core/engine/plan-model';
import { authenticate, verifyAuthentication } from '../core/crypto/state-key';
import { writeFileDurably } from '../core/durable-write';

/** A saved plan: exactly what apply will do, and the state it was made against. No secret is in it. */
export interface SavedPlan {
  readonly format: 'converge-plan';
  readonly format_version: number;
  readonly created: string;
  readonly plans: StackPlan[];
  /**
   * HMAC-SHA256 of the canonical JSON of every other field, under a key derived from the state
   * key: a plan file edited after `plan --out` (say, a provider address pointed at another host)
   * is refused before anything in it is used.
   */
  readonly mac?: string;
}

const PURPOSE = 'plan file';

/** JSON with object keys sorted at every level, so that the MAC does not depend on key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Writes the plan file authenticated, mode 0600 whatever was there before (a new file renamed over it). */
export function writeSavedPlan(file: string, plans: StackPlan[]): void {
  const body: SavedPlan = { format: 'converge-plan', format_version: PLAN_FORMAT_VERSION, created: new Date().toISOString(), plans };
  // The MAC covers the document as it will be read back (JSON drops undefined fields).
  const plain = JSON.parse(JSON.stringify(body)) as SavedPlan;
  const saved: SavedPlan = { ...plain, mac: authenticate(PURPOSE, canonicalJson(plain)) };
  writeFileDurably(file, JSON.stringify(saved), { mode: 0o600 });
}

/** Reads a plan file, refusing one that is not authentic under the current state key before using anything in it. */
export function readSavedPlan(file: string): SavedPlan {
  let doc: SavedPlan;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedPlan;
  } catch (e) {
    throw new Error(`${file} is not a converge plan file: ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || doc.format !== 'converge-plan') throw new Error(`${file} is not a converge plan file`);
  const { mac, ...rest } = doc;
  if (typeof mac !== 'string' || !verifyAuthentication(PURPOSE, canonicalJson(rest), mac)) {
    throw new Error(`${file} is not authentic: it was changed after converge plan wrote it, or made with another state key ` +
      '(CONVERGE_STATE_KEY); nothing was applied. Make a new plan with: converge plan --out');
  }
  if (doc.format_version > PLAN_FORMAT_VERSION) throw new Error(`${file} was written by a newer converge (plan format ${doc.format_version})`);
  return doc;
}
