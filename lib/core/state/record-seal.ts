import { authenticate, decrypt, encrypt, verifyAuthentication } from '../crypto/state-key';
import { StateDocument, StateRecord } from './state-model';

/**
 * What makes a state record trustworthy: its sensitive outputs are encrypted with associated data
 * naming the stack, address and field (a ciphertext moved to another record does not decrypt), and
 * the whole record is authenticated (`mac`: an HMAC, under a key derived from the state key, of the
 * stack, the address and the record), so that a record edited, moved or planted by whoever can
 * write state without the key is refused, naming it.
 *
 * A record without a seal is never trusted: whoever can write state without the key could strip the
 * seals and the document's `authenticated` mark, and the state would look written by an earlier
 * release. A state from a release that did not seal records (no `mac`, `v1` ciphertexts, no
 * `authenticated`) is refused as a whole until `converge state migrate` seals it, once, explicitly,
 * listing what it seals (`legacyRecords`).
 */

const MAC_PURPOSE = 'state record';

/** A field's associated data: the stack, the address and the field. */
export function fieldAad(stack: string, address: string, field: string): string {
  return `converge state\u0000${stack}\u0000${address}\u0000${field}`;
}

/**
 * JSON with object keys sorted and undefined dropped: a JSON store (PostgreSQL jsonb) keeps no key order.
 * Written out directly rather than by copying the record into sorted objects for `JSON.stringify`
 * (every record is checked at each read of state): the same text as `JSON.stringify` of the sorted copy.
 */
export function canonical(v: unknown): string {
  return canonicalPart(v) ?? 'null';
}

/**
 * `canonical({ stack, address, record })` with the record's `mac` left out, without copying the record
 * (checked for every record at each read of state): the keys in that order are already sorted.
 */
function sealedText(stack: string, address: string, rec: StateRecord): string {
  if (typeof stack !== 'string' || typeof address !== 'string' || rec === null || typeof rec !== 'object' || Array.isArray(rec)) {
    return canonical({ stack, address, record: { ...rec, mac: undefined } });
  }
  return `{"address":${JSON.stringify(address)},"record":${canonicalObject(rec as unknown as Record<string, unknown>, 'mac')},"stack":${JSON.stringify(stack)}}`;
}

function canonicalPart(x: unknown): string | undefined {
  if (typeof x === 'string') return JSON.stringify(x);
  if (x === null || typeof x !== 'object') return JSON.stringify(x);
  if (Array.isArray(x)) {
    let out = '[';
    for (let i = 0; i < x.length; i++) out += (i ? ',' : '') + (canonicalPart(x[i]) ?? 'null');
    return out + ']';
  }
  return canonicalObject(x as Record<string, unknown>);
}

function canonicalObject(obj: Record<string, unknown>, leaveOut?: string): string {
  let out = '{';
  let first = true;
  for (const k of sortedKeys(obj)) {
    if (k === leaveOut) continue;
    const value = obj[k];
    if (value === undefined) continue;
    const text = canonicalPart(value);
    if (text === undefined) continue; // a function or symbol, which JSON.stringify leaves out too
    out += (first ? '' : ',') + quotedKey(k) + ':' + text;
    first = false;
  }
  return out + '}';
}

/** Keys as JSON strings: records repeat the same few keys, each quoted once. */
const quotedKeys = new Map<string, string>();

function quotedKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
}

/**
 * The keys in the order `JSON.stringify` gives an object built with them sorted: integer-like keys
 * (array indices) first in numeric order, as JavaScript orders an object's own keys, then the rest sorted.
 */
function sortedKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  if (keys.length < 2) return sortedKeysOf(keys);
  // Records of a stack repeat a few shapes (the same keys in the same order): each shape sorted once.
  // The joined text only finds the entry: it is used only for the very same key list (a key may hold the separator).
  const shape = keys.join('\u0000');
  const known = sortedShapes.get(shape);
  if (known !== undefined && sameKeys(known.keys, keys)) return known.sorted;
  const sorted = sortedKeysOf([...keys]);
  if (known === undefined && sortedShapes.size < 1000) sortedShapes.set(shape, { keys, sorted });
  return sorted;
}

/** Sorted key lists by shape (the keys in their own order, and joined to find them); never changed once made. */
const sortedShapes = new Map<string, { keys: readonly string[]; sorted: string[] }>();

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sortedKeysOf(keys: string[]): string[] {
  if (keys.length > 1) keys.sort();
  let indexLike = false;
  for (let i = 0; i < keys.length && !indexLike; i++) indexLike = isIndexLike(keys[i]);
  if (!indexLike) return keys;
  const indices = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return indices.length ? [...indices, ...keys.filter((k) => !isArrayIndex(k))] : keys;
}

function isIndexLike(k: string): boolean {
  const c = k.charCodeAt(0);
  return c >= 48 && c <= 57;
}

function isArrayIndex(k: string): boolean {
  return /^(?:0|[1-9][0-9]*)$/.test(k) && Number(k) < 4294967295;
}

function macOf(stack: string, address: string, rec: StateRecord): string {
  return authenticate(MAC_PURPOSE, sealedText(stack, address, rec));
}

/**
 * Where each record in memory belongs, so that its sensitive outputs are decrypted with their associated data.
 * Kept only for records that hold sensitive outputs (the only ones `openSensitiveOutputs` looks up): not an entry
 * per record sealed or read.
 */
const places = new WeakMap<StateRecord, { stack: string; address: string }>();

/** The record as state keeps it: sensitive outputs bound to their place, authenticated. */
export function sealRecord(stack: string, address: string, rec: StateRecord): StateRecord {
  let sealed = rec;
  if (rec.sensitiveOutputs && !rec.sensitiveOutputs.startsWith('v2.')) {
    // Written by the applier (or an earlier release) without associated data: bound here.
    const aad = fieldAad(stack, address, 'sensitiveOutputs');
    sealed = { ...sealed, sensitiveOutputs: encrypt(decrypt(rec.sensitiveOutputs), aad) };
  }
  sealed = { ...sealed, mac: macOf(stack, address, sealed) }; // (the mac of the record without its mac)
  if (sealed.sensitiveOutputs) places.set(sealed, { stack, address });
  return sealed;
}

/**
 * A verified record freed from its place, to be sealed to another (a state pushed under another
 * stack name): its sensitive outputs are decrypted where they were and encrypted without a place.
 */
export function unbindRecord(rec: StateRecord): StateRecord {
  const { mac: _mac, ...rest } = rec;
  return rec.sensitiveOutputs ? { ...rest, sensitiveOutputs: encrypt(JSON.stringify(openSensitiveOutputs(rec))) } : rest;
}

/**
 * Checks every record of a document and remembers where each belongs. Every record must carry a
 * `mac` that matches it under `stack` (the document's by default; another one for a state pulled
 * from a stack and pushed under a new name). A document not sealed at all is refused naming
 * `converge state migrate`. Returns the addresses refused (with `tolerate`), else throws naming them.
 */
export function verifyDocument(doc: StateDocument, what: string, tolerate = false, stack = doc.stack, verified?: VerifiedRecords): string[] {
  if (!doc.authenticated && !tolerate) throw new Error(unsealedMessage(what, stack));
  const refused: string[] = [];
  for (const [address, rec] of Object.entries(doc.resources)) {
    const text = verified ? JSON.stringify(rec) : undefined;
    const ok = (text !== undefined && verified!.has(stack, address, text)) ||
      (!!rec.mac && verifyAuthentication(MAC_PURPOSE, sealedText(stack, address, rec), rec.mac));
    if (!ok) refused.push(address);
    else if (rec.sensitiveOutputs) places.set(rec, { stack, address });
    if (text !== undefined) verified!.remember(stack, address, ok ? text : undefined);
  }
  if (refused.length && !tolerate) {
    throw new Error(`${what}: ${refused.length === 1 ? 'the record' : 'the records'} at ${refused.join(', ')} ` +
      `${refused.length === 1 ? 'was' : 'were'} changed outside converge (${refused.length === 1 ? 'its' : 'their'} authentication under the state key ` +
      `is missing or does not match): converge does not act on them. Restore the state from a backup, or forget ${refused.length === 1 ? 'it' : 'them'} ` +
      `with converge state rm ADDRESS and take the object${refused.length === 1 ? '' : 's'} under management again with converge import`);
  }
  return refused;
}

/**
 * Records a long-running process (`converge watch`) verified when it read a state before, as read
 * (their JSON text), by stack and address: a record read again with the very same text is the record
 * whose authentication matched, so it needs no second HMAC. Anything else is verified as ever.
 */
export class VerifiedRecords {
  private readonly texts = new Map<string, string>();

  public has(stack: string, address: string, text: string): boolean {
    return this.texts.get(`${stack}\u0000${address}`) === text;
  }

  /** Remembers the text of a record whose authentication matched (undefined: forgets the address). */
  public remember(stack: string, address: string, text: string | undefined): void {
    if (text === undefined) this.texts.delete(`${stack}\u0000${address}`);
    else this.texts.set(`${stack}\u0000${address}`, text);
  }
}

/** The sensitive outputs of a record read from state, decrypted with the associated data of its place. */
export function openSensitiveOutputs(rec: StateRecord): Record<string, unknown> {
  if (!rec.sensitiveOutputs) return {};
  const place = places.get(rec);
  const aad = rec.sensitiveOutputs.startsWith('v2.') && place ? fieldAad(place.stack, place.address, 'sensitiveOutputs') : undefined;
  try {
    return JSON.parse(decrypt(rec.sensitiveOutputs, aad)) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`the sensitive outputs of ${place ? `${place.address} in the state of stack "${place.stack}"` : rec.path ?? 'a state record'}: ${(e as Error).message}`);
  }
}

function unsealedMessage(what: string, stack: string): string {
  return `${what} is not sealed: none of its records is authenticated under the state key. Either a converge release that did not ` +
    'seal state wrote it, or someone who can write state without the key removed its seals; converge does not act on it. ' +
    `If it is the former, seal it once with: converge state migrate --stack ${stack} (it lists the records it seals); ` +
    'otherwise restore the state from a backup';
}

/**
 * The records of a state written by a release that did not seal records, for `converge state
 * migrate`. A document that shows it was sealed (its mark, a record's `mac`, a ciphertext bound to
 * its place, which only this release writes) is refused: its seals were removed outside converge.
 */
export function legacyRecords(doc: StateDocument, what: string): string[] {
  const sealedOnce = Object.entries(doc.resources)
    .filter(([, r]) => r.mac !== undefined || (r.sensitiveOutputs !== undefined && !r.sensitiveOutputs.startsWith('v1.')))
    .map(([a]) => a);
  if (doc.authenticated && !verifyDocument(doc, what, true).length) throw new Error(`${what} is sealed already: there is nothing to migrate`);
  if (doc.authenticated || sealedOnce.length) {
    throw new Error(`${what} was sealed by this release${sealedOnce.length ? ` (the records at ${sealedOnce.join(', ')} show it)` : ''}, ` +
      'and its seals were removed or changed outside converge: converge state migrate seals only a state from a release that did not seal records. ' +
      'Restore the state from a backup');
  }
  return Object.keys(doc.resources).sort();
}
