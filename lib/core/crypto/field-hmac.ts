import * as crypto from 'crypto';
import { hmac } from './state-key';

/** A fresh per-record salt, so that one secret in two records has two unrelated HMACs. */
export function newSalt(): string {
  return crypto.randomBytes(12).toString('base64url');
}

/**
 * HMAC of a sensitive field's value under the state key, keyed by the record's salt and the
 * field's path: equal values in two places do not show as equal in state. A record written
 * before salts existed (no salt) keeps the plain HMAC of the value, so that its secrets do not
 * all look changed after an upgrade.
 */
export function fieldHmac(salt: string | undefined, path: string, value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return salt === undefined ? hmac(text) : hmac(`converge-field\u0000${salt}\u0000${path}\u0000${text}`);
}
