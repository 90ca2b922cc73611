import * as fs from 'fs';
import { SecretRef } from '../model';
import { decrypt } from './state-key';

/** Reads a synthesized secret's value; errors name the construct and field, never a value. */
export function resolveSecret(ref: SecretRef, where: string): string {
  const s = ref.$secret;
  if (s.env !== undefined) {
    const v = process.env[s.env];
    if (v === undefined) throw new Error(`${where}: environment variable ${s.env} is not set`);
    return v;
  }
  if (s.file !== undefined) {
    try {
      return fs.readFileSync(s.file, 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      throw new Error(`${where}: cannot read secret file ${s.file}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
  if (s.sealed !== undefined) {
    try {
      return decrypt(s.sealed);
    } catch (e) {
      throw new Error(`${where}: ${(e as Error).message}`);
    }
  }
  throw new Error(`${where}: a secret has no source`);
}
