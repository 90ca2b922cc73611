import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { createFileExclusively } from '../durable-write';

/** The working directory of converge: state, lock and key files. */
export function convergeDir(): string {
  return path.resolve(process.env.CONVERGE_DIR ?? '.converge');
}

/** The prefix that marks `CONVERGE_STATE_KEY` as a passphrase (stretched with scrypt) rather than random bytes. */
export const PASSPHRASE_PREFIX = 'passphrase:';
/** Shortest passphrase accepted after the prefix. */
export const MIN_PASSPHRASE_LENGTH = 20;
/**
 * The scrypt salt is fixed: the key must be derivable where no state exists (an app seals
 * `SecretValue.unsafePlainText` at synth, several stacks share one key), so it cannot live in
 * a state. The cost below is what makes a guess expensive; hence the length rule above.
 */
const SCRYPT_SALT = 'converge-state-key/v1';
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_CHECK_LABEL = 'converge key check v1';

/** Where the key came from, for messages: the variable, or the generated key file. */
export interface KeySource {
  readonly key: Buffer;
  /** `CONVERGE_STATE_KEY`, or `the key file <path>`. */
  readonly name: string;
}

let cached: { key: Buffer; id: string; name: string } | undefined;
let announced = false;

const HOW_TO = 'make one with: openssl rand -hex 32 (or: converge keygen)';

/**
 * Turns key material into the 32-byte key. Accepted: at least 32 random bytes as hex (64+
 * characters) or base64, or `passphrase:` followed by at least 20 characters (scrypt).
 * Anything else is refused: a short or guessable key can be brute-forced offline from state.
 */
export function deriveKey(material: string, name = 'CONVERGE_STATE_KEY'): Buffer {
  const m = material.trim();
  if (m.startsWith(PASSPHRASE_PREFIX)) {
    const pass = m.slice(PASSPHRASE_PREFIX.length);
    if (pass.length < MIN_PASSPHRASE_LENGTH) {
      throw new Error(`${name}: a passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters after "${PASSPHRASE_PREFIX}" (it has ${pass.length}); ` +
        `better, use 32 random bytes: ${HOW_TO}`);
    }
    return crypto.scryptSync(pass, SCRYPT_SALT, 32, SCRYPT);
  }
  if (randomBytesOf(m) < 32) {
    throw new Error(`${name} must be at least 32 random bytes written as hex (64 characters) or base64, ` +
      `or "${PASSPHRASE_PREFIX}" followed by a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters; ${HOW_TO}`);
  }
  // The material as given (not its decoded bytes): keys of earlier releases stay the same key.
  return crypto.createHash('sha256').update(`converge-state-key:${m}`).digest();
}

/** How many bytes a hex or base64 string encodes (0 when it is neither). */
function randomBytesOf(m: string): number {
  if (/^(?:[0-9a-fA-F]{2})+$/.test(m)) return m.length / 2;
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(m) || /^[A-Za-z0-9_-]+$/.test(m)) {
    const bytes = Buffer.from(m, m.includes('-') || m.includes('_') ? 'base64url' : 'base64');
    const again = bytes.toString('base64').replace(/=+$/, '');
    const given = m.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
    return again === given ? bytes.length : 0;
  }
  return 0;
}

/** A new random key as hex (`converge keygen`). */
export function generateKey(): string {
  return crypto.randomBytes(32).toString('hex');
}

/**
 * The key that HMACs sensitive inputs and encrypts sensitive outputs, with where it came from:
 * `CONVERGE_STATE_KEY`, else a key file beside the local state (created mode 0600, said once,
 * unless `create` is false).
 */
export function stateKeySource(options: { create?: boolean; log?: (m: string) => void } = {}): KeySource {
  const fromEnv = process.env.CONVERGE_STATE_KEY;
  // Asked once per state record (its authentication): the key given in the environment is recognised without path work.
  if (fromEnv && cached?.id === `env:${fromEnv}`) return cached;
  const file = path.join(convergeDir(), 'state.key');
  const id = fromEnv ? `env:${fromEnv}` : `file:${file}`;
  if (cached && cached.id === id) return cached;
  let material: string;
  let name: string;
  if (fromEnv) {
    material = fromEnv;
    name = 'CONVERGE_STATE_KEY';
  } else {
    name = `the key file ${file}`;
    if (fs.existsSync(file)) {
      material = fs.readFileSync(file, 'utf8').trim();
    } else {
      if (options.create === false) throw new Error(`no state key: CONVERGE_STATE_KEY is not set and ${file} does not exist`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const made = createKeyFile(file);
      material = made.material;
      if (made.created && !announced) {
        announced = true;
        (options.log ?? ((m: string) => process.stderr.write(m + '\n')))(
          `converge: created a state key in ${file} (mode 0600); set CONVERGE_STATE_KEY to share state between machines`);
      }
    }
  }
  cached = { key: deriveKey(material, name), id, name };
  return cached;
}

/**
 * Writes a new key file complete, then links it into place: runs that start at once (the Terraform
 * bridges of stacks that `cdktf deploy` deploys in parallel, in one app directory) all use the
 * first one's key, and none reads a file half written.
 */
function createKeyFile(file: string): { material: string; created: boolean } {
  const material = generateKey();
  if (createFileExclusively(file, material + '\n', { mode: 0o600 })) return { material, created: true };
  return { material: fs.readFileSync(file, 'utf8').trim(), created: false };
}

/** The state key (see `stateKeySource`). */
export function stateKey(options: { create?: boolean; log?: (m: string) => void } = {}): Buffer {
  return stateKeySource(options).key;
}

/** The key check stored in state: an HMAC of a fixed label, so that another key is noticed before it is used. */
export function keyCheck(key: Buffer = stateKey()): string {
  return crypto.createHmac('sha256', key).update(KEY_CHECK_LABEL).digest('base64url');
}

/**
 * Refuses to go on when a state's key check was made with another key than the current one,
 * naming where the current key comes from. `what` names the state, for the message.
 */
export function verifyKeyCheck(check: string | undefined, what: string): void {
  if (check === undefined) return;
  let source: KeySource;
  try {
    source = stateKeySource({ create: false });
  } catch (e) {
    throw new Error(`${what} is protected by a state key, but there is none here: ${(e as Error).message}; set CONVERGE_STATE_KEY to the key it was written with`);
  }
  const expected = Buffer.from(keyCheck(source.key));
  const given = Buffer.from(check);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) {
    throw new Error(`${what} was written with another state key than ${source.name}: set CONVERGE_STATE_KEY to the key it was written with ` +
      '(with another key every secret would look changed and be sent again)');
  }
}

/** HMAC-SHA256 of a value under the state key (hex), for comparing write-only inputs. */
export function hmac(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return crypto.createHmac('sha256', stateKey()).update(text).digest('hex');
}

/** HMAC-SHA256 of a document under a key derived from the state key for `purpose` (base64url). */
export function authenticate(purpose: string, text: string): string {
  return crypto.createHmac('sha256', subKey(purpose)).update(text).digest('base64url');
}

/** The key derived for a purpose, kept for the state key it came from (every record of a state is authenticated with it). */
let derived: { key: Buffer; purpose: string; sub: Buffer } | undefined;
function subKey(purpose: string): Buffer {
  const key = stateKey();
  if (derived?.key !== key || derived.purpose !== purpose) {
    derived = { key, purpose, sub: crypto.createHmac('sha256', key).update(`converge ${purpose} key v1`).digest() };
  }
  return derived.sub;
}

/** Whether `mac` is `authenticate(purpose, text)`, compared in constant time. */
export function verifyAuthentication(purpose: string, text: string, mac: string): boolean {
  const a = Buffer.from(authenticate(purpose, text));
  const b = Buffer.from(mac);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/**
 * AES-256-GCM under the state key. With `aad` (associated data: where the value belongs), the
 * ciphertext is `v2.<iv>.<tag>.<ciphertext>` and decrypts only with the same `aad`, so that it cannot
 * be moved to another record, field or stack; without, `v1.…` (what earlier releases wrote).
 */
export function encrypt(plain: string, aad?: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', stateKey(), iv);
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [aad !== undefined ? 'v2' : 'v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/**
 * Decrypts `encrypt`'s output; a tampered or foreign ciphertext is refused clearly. A `v2`
 * ciphertext needs the `aad` it was written with; a `v1` one has none.
 */
export function decrypt(sealed: string, aad?: string): string {
  const [v, iv, tag, ct] = sealed.split('.');
  if ((v !== 'v1' && v !== 'v2') || !iv || !tag || ct === undefined) throw new Error('encrypted value is malformed');
  if (v === 'v2' && aad === undefined) throw new Error('encrypted value is bound to a place in state, and was read without it');
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', stateKey(), Buffer.from(iv, 'base64url'));
    if (v === 'v2') decipher.setAAD(Buffer.from(aad!, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(v === 'v2'
      ? 'encrypted value cannot be decrypted: it was moved from another record, field or stack, or tampered with, or CONVERGE_STATE_KEY is not the key it was written with'
      : 'encrypted value cannot be decrypted: it was tampered with, or CONVERGE_STATE_KEY is not the key it was written with');
  }
}
