import * as crypto from 'crypto';
import { decrypt, encrypt } from './state-key';

/**
 * `SecretValue.unsafePlainText` seals its value into the synthesized output. When the CLI runs the
 * app it gives it a one-run key (`CONVERGE_SYNTH_SEAL_KEY`) instead of the state key, which the app
 * never sees (nor any API token); the CLI then seals the value again under the state key. An app
 * synthesized on its own (`--synth-dir`) seals under the state key directly.
 */
export const SYNTH_SEAL_VARIABLE = 'CONVERGE_SYNTH_SEAL_KEY';
const PREFIX = 'synth1.';
/**
 * The associated data of a value sealed under the state key for the synthesized output: a ciphertext
 * of state (a sensitive output, bound to its record or of an earlier release without binding) copied
 * into a synthesized `sealed` source does not decrypt, so the synthesized output is no way to have
 * converge decrypt state.
 */
const SYNTH_AAD = 'converge synthesized secret';

/** Encrypts an in-app secret for the synthesized output (see `SecretValue.unsafePlainText`). */
export function sealForSynth(value: string): string {
  const runKey = process.env[SYNTH_SEAL_VARIABLE];
  if (!runKey) return encrypt(value, SYNTH_AAD);
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(runKey, 'hex'), iv);
  const ct = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return PREFIX + [iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url')).join('.');
}

/** A fresh one-run sealing key (hex) for an app the CLI runs. */
export function newSynthSealKey(): string {
  return crypto.randomBytes(32).toString('hex');
}

/** Seals a value sealed under the one-run key under the state key instead; others are returned as they are. */
export function resealUnderStateKey(sealed: string, runKey: string): string {
  if (!sealed.startsWith(PREFIX)) return sealed;
  const [iv, tag, ct] = sealed.slice(PREFIX.length).split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = crypto.createDecipheriv('aes-256-gcm', Buffer.from(runKey, 'hex'), iv);
  decipher.setAuthTag(tag);
  const plain = Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
  return encrypt(plain, SYNTH_AAD);
}

/** The value of a synthesized `sealed` source (sealed under the state key by `sealForSynth` or `resealUnderStateKey`). */
export function openSynthSeal(sealed: string): string {
  if (typeof sealed !== 'string' || !sealed.startsWith('v2.')) {
    throw new Error('a sealed secret of the synthesized output must be sealed for it by this release (SecretValue.unsafePlainText): synthesize the app again');
  }
  try {
    return decrypt(sealed, SYNTH_AAD);
  } catch {
    throw new Error('a sealed secret of the synthesized output cannot be decrypted: it was not sealed for the synthesized output under this state key '
      + '(synthesize the app again, with the same CONVERGE_STATE_KEY)');
  }
}

