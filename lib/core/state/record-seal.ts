import { authenticate, decrypt, encrypt, verifyAuthentication } from '../crypto/state-key';
import { StateDocument, StateRecord } from './state-model';

/**
 * What makes a state record trustworthy: its sensitive outputs are encrypted with associated data
 * naming the stack, address and field (a ciphertext moved to another record does not decrypt), and
 * the whole record is authenticated (`mac`: an HMAC, under a key derived from the state key, of the
 * stack, the address and the record), so that a record edited, moved or planted by whoever can
 * write state without the key is refused, naming it. Records written by earlier releases (no `mac`,
 * `v1` ciphertexts) are accepted in a document that was never authenticated, and sealed at its next write.
 */

const MAC_PURPOSE = 'state record';

/** A field's associated data: the stack, the address and the field. */
export function fieldAad(stack: string, address: string, field: string): string {
  return `converge state\u0000${stack}\u0000${address}\u0000${field}`;
}

/** JSON with object keys sorted and undefined dropped: a JSON store (PostgreSQL jsonb) keeps no key order. */
function canonical(v: unknown): string {
  const walk = (x: unknown): unknown => (Array.isArray(x) ? x.map(walk) : x !== null && typeof x === 'object'
    ? Object.fromEntries(Object.keys(x as object).sort().filter((k) => (x as Record<string, unknown>)[k] !== undefined)
      .map((k) => [k, walk((x as Record<string, unknown>)[k])])) : x);
  return JSON.stringify(walk(v));
}

function macOf(stack: string, address: string, rec: StateRecord): string {
  const { mac: _mac, ...rest } = rec;
  return authenticate(MAC_PURPOSE, canonical({ stack, address, record: rest }));
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
  sealed = { ...sealed, mac: undefined };
  sealed = { ...sealed, mac: macOf(stack, address, sealed) };
  places.set(sealed, { stack, address });
  return sealed;
}

/** Whether a record needs sealing (written by an earlier release). */
export function isSealed(rec: StateRecord): boolean {
  return !!rec.mac && (!rec.sensitiveOutputs || rec.sensitiveOutputs.startsWith('v2.'));
}

/**
 * Checks every record of a document and remembers where each belongs. A record with a `mac` must
 * match it; in a document marked `authenticated`, a record without one is refused as well. Returns
 * the addresses refused (with `tolerate`), else throws naming them.
 */
export function verifyDocument(doc: StateDocument, what: string, tolerate = false): string[] {
  const refused: string[] = [];
  for (const [address, rec] of Object.entries(doc.resources)) {
    const ok = rec.mac ? verifyAuthentication(MAC_PURPOSE, canonical({ stack: doc.stack, address, record: { ...rec, mac: undefined } }), rec.mac)
      : !doc.authenticated;
    if (ok) places.set(rec, { stack: doc.stack, address });
    else refused.push(address);
  }
  if (refused.length && !tolerate) {
    throw new Error(`${what}: ${refused.length === 1 ? 'the record' : 'the records'} at ${refused.join(', ')} ` +
      `${refused.length === 1 ? 'was' : 'were'} changed outside converge (${refused.length === 1 ? 'its' : 'their'} authentication under the state key ` +
      `does not match): converge does not act on them. Restore the state from a backup, or forget ${refused.length === 1 ? 'it' : 'them'} ` +
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
