import { createHmac } from 'crypto';

/** TOTP hash algorithms the service accepts, with their Node names. */
export const TOTP_ALGORITHMS: Record<string, string> = { SHA1: 'sha1', SHA256: 'sha256', SHA512: 'sha512' };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, as otpauth URLs carry secrets. */
export function base32Encode(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/**
 * Decodes RFC 4648 base32 (case-insensitive, padding optional); throws with the position of the
 * first illegal character, as Go's decoder words it.
 */
export function base32Decode(text: string): Buffer {
  const s = text.toUpperCase().replace(/=+$/, '');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (let i = 0; i < s.length; i++) {
    const v = ALPHABET.indexOf(s[i]);
    if (v < 0) throw new Error(`illegal base32 data at input byte ${i}`);
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  // A length that leaves 1, 3 or 6 characters in the last group cannot come from whole bytes.
  if ([1, 3, 6].includes(s.length % 8)) throw new Error(`illegal base32 data at input byte ${s.length}`);
  return Buffer.from(out);
}

/** HOTP (RFC 4226) with the hash of RFC 6238: the code of one counter value. */
export function hotp(secret: Buffer, counter: number, digits: number, algorithm: string): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(TOTP_ALGORITHMS[algorithm] ?? 'sha1', secret).update(msg).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const bin = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(bin % 10 ** digits).padStart(digits, '0');
}

/** TOTP (RFC 6238): the code at a time (milliseconds since the epoch). */
export function totpAt(secret: Buffer, timeMs: number, period: number, digits: number, algorithm: string): string {
  return hotp(secret, Math.floor(timeMs / 1000 / period), digits, algorithm);
}

/**
 * Whether a code is valid at a time, allowing `skew` periods either side; returns the counter
 * it matched, or undefined. A code of the wrong length is simply invalid.
 */
export function totpMatch(code: string, secret: Buffer, timeMs: number, period: number, digits: number,
  algorithm: string, skew: number): number | undefined {
  if (code.length !== digits) return undefined;
  const counter = Math.floor(timeMs / 1000 / period);
  for (let d = -skew; d <= skew; d++) {
    if (counter + d >= 0 && hotp(secret, counter + d, digits, algorithm) === code) return counter + d;
  }
  return undefined;
}
