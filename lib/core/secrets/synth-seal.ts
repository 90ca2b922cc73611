import { encrypt } from './state-key';

/** Encrypts an in-app secret for the synthesized output (see `SecretValue.unsafePlainText`). */
export function sealForSynth(value: string): string {
  return encrypt(value);
}
