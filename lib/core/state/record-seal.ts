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
 * JSON with object keys sorted and undefined dropped: a JSON store (PostgreSQL jsonb) keeps no key
 * order. Written in one pass (two seals per create and a check of every record per run: copying
 * each record into a sorted object and then serializing it was most of their cost). The text is the
 * one earlier releases MACed, `JSON.stringify` of the value rebuilt with sorted keys, including the
 * order JavaScript gives such a rebuilt object: keys that are array indices first, in numeric order.
 */
export function canonical(v: unknown, skip?: string): string {
  switch (typeof v) {
    case 'string': return quote(v);
    case 'object': break;
    default: return JSON.stringify(v);
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      out += (i ? ',' : '') + (x === undefined || typeof x === 'function' || typeof x === 'symbol' ? 'null' : canonical(x));
    }
    return out + ']';
  }
  const o = v as Record<string, unknown>;
  let keys = Object.keys(o);
  if (keys.length > 1) keys.sort();
  // Sorted, keys starting with a digit come first; only they can be array indices, which an object orders apart.
  if (keys.length && keys[0].charCodeAt(0) <= 57) keys = Object.keys(Object.fromEntries(keys.map((k) => [k, 0])));
  let out = '{';
  let first = true;
  for (const k of keys) {
    const x = o[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol' || k === skip) continue;
    out += (first ? '' : ',') + quotedKey(k) + canonical(x);
    first = false;
  }
  return out + '}';
}

/** Printable ASCII but `"` and `\`: what JSON.stringify writes as it is, between quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
function quote(s: string): string {
  return PLAIN.test(s) ? `"${s}"` : JSON.stringify(s);
}

/** Keys repeat in every record (kind, spec, outputs…): quoted once. */
const quotedKeys = new Map<string, string>();
function quotedKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = `${quote(k)}:`;
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
}

/** What a record's MAC is of: `{ stack, address, record }` in canonical JSON, the record without its `mac`. */
function macText(stack: string, address: string, rec: StateRecord): string {
  return `{"address":${quote(address)},"record":${canonical(rec, 'mac')},"stack":${quote(stack)}}`;
}

function macOf(stack: string, address: string, rec: StateRecord): string {
  return authenticate(MAC_PURPOSE, macText(stack, address, rec));
}

/** Where each record in memory belongs, so that its sensitive outputs are decrypted with their associated data. */
const places = new WeakMap<StateRecord, { stack: string; address: string }>();

/** The record as state keeps it: sensitive outputs bound to their place, authenticated. */
export function sealRecord(stack: string, address: string, rec: StateRecord): StateRecord {
  let sealed = rec;
  if (rec.sensitiveOutputs && !rec.sensitiveOutputs.startsWith('v2.')) {
    // Written by the applier (or an earlier release) without associated data: bound here.
    const aad = fieldAad(stack, address, 'sensitiveOutputs');
    sealed = { ...sealed, sensitiveOutputs: encrypt(decrypt(rec.sensitiveOutputs), aad) };
  }
  sealed = { ...sealed, mac: macOf(stack, address, sealed) };
  places.set(sealed, { stack, address });
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
export function verifyDocument(doc: StateDocument, what: string, tolerate = false, stack = doc.stack): string[] {
  if (!doc.authenticated && !tolerate) throw new Error(unsealedMessage(what, stack));
  const refused: string[] = [];
  for (const [address, rec] of Object.entries(doc.resources)) {
    const ok = !!rec.mac && verifyAuthentication(MAC_PURPOSE, macText(stack, address, rec), rec.mac);
    if (ok) places.set(rec, { stack, address });
    else refused.push(address);
  }
  if (refused.length && !tolerate) {
    throw new Error(`${what}: ${refused.length === 1 ? 'the record' : 'the records'} at ${refused.join(', ')} ` +
      `${refused.length === 1 ? 'was' : 'were'} changed outside converge (${refused.length === 1 ? 'its' : 'their'} authentication under the state key ` +
      `is missing or does not match): converge does not act on them. Restore the state from a backup, or forget ${refused.length === 1 ? 'it' : 'them'} ` +
      `with converge state rm ADDRESS and take the object${refused.length === 1 ? '' : 's'} under management again with converge import`);
  }
  return refused;
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
