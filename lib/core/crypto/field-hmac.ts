import * as crypto from 'crypto';
import { hmac } from './state-key';

/** A fresh per-record salt, so that one secret in two records has two unrelated HMACs. */
export function newSalt(): string {
  // Drawn from a pool filled 4 KiB at a time: one call to the system's generator per 341 salts instead of one each
  // (a plan and an apply draw one per new object). Each salt is fresh random bytes, never handed out twice.
  if (saltPool.next + SALT_BYTES > saltPool.bytes.length) {
    crypto.randomFillSync(saltPool.bytes);
    saltPool.next = 0;
  }
  const salt = saltPool.bytes.toString('base64url', saltPool.next, saltPool.next + SALT_BYTES);
  saltPool.next += SALT_BYTES;
  return salt;
}

const SALT_BYTES = 12;
const saltPool = { bytes: Buffer.alloc(4092), next: 4092 };

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
