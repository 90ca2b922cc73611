import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** The working directory of converge: state, lock and key files. */
export function convergeDir(): string {
  return path.resolve(process.env.CONVERGE_DIR ?? '.converge');
}

let cached: { key: Buffer; source: string } | undefined;
let announced = false;

/**
 * The key that HMACs sensitive inputs and encrypts sensitive outputs: from
 * `CONVERGE_STATE_KEY`, else a key file beside the local state (created mode 0600, said once).
 */
export function stateKey(options: { create?: boolean; log?: (m: string) => void } = {}): Buffer {
  const fromEnv = process.env.CONVERGE_STATE_KEY;
  const source = fromEnv ? 'env' : path.join(convergeDir(), 'state.key');
  if (cached && cached.source === source) return cached.key;
  let material: string;
  if (fromEnv) {
    material = fromEnv;
  } else if (fs.existsSync(source)) {
    material = fs.readFileSync(source, 'utf8').trim();
  } else {
    if (options.create === false) throw new Error('no state key: set CONVERGE_STATE_KEY');
    fs.mkdirSync(path.dirname(source), { recursive: true });
    material = crypto.randomBytes(32).toString('hex');
    fs.writeFileSync(source, material + '\n', { mode: 0o600, flag: 'wx' });
    if (!announced) {
      announced = true;
      (options.log ?? ((m: string) => process.stderr.write(m + '\n')))(
        `converge: created a state key in ${source} (mode 0600); set CONVERGE_STATE_KEY to share state between machines`);
    }
  }
  const key = crypto.createHash('sha256').update(`converge-state-key:${material}`).digest();
  cached = { key, source };
  return key;
}

/** HMAC-SHA256 of a value under the state key (hex), for comparing write-only inputs. */
export function hmac(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return crypto.createHmac('sha256', stateKey()).update(text).digest('hex');
}

/** AES-256-GCM under the state key: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function encrypt(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', stateKey(), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/** Decrypts `encrypt`'s output; a tampered or foreign ciphertext is refused clearly. */
export function decrypt(sealed: string): string {
  const [v, iv, tag, ct] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('encrypted value is malformed');
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', stateKey(), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('encrypted value cannot be decrypted: it was tampered with, or CONVERGE_STATE_KEY is not the key it was written with');
  }
}
