import * as fs from 'fs';
import { SecretRef } from '../model';
import { confinedSecretFile, forbiddenSecretVariable } from './secret-sources';
import { openSynthSeal } from './synth-seal';

/**
 * Reads a synthesized secret's value; errors name the construct, the field and the source, never a
 * value. The source comes from the synthesized output (data the app wrote): a variable of converge's
 * own is refused, and a file is read only where `confinedSecretFile` allows.
 */
export function resolveSecret(ref: SecretRef, where: string): string {
  const s = ref.$secret;
  if (s.env !== undefined) {
    const forbidden = forbiddenSecretVariable(String(s.env));
    if (forbidden) throw new Error(`${where}: the secret source env ${String(s.env).slice(0, 100)} is refused: ${forbidden}`);
    const v = process.env[s.env];
    if (v === undefined) throw new Error(`${where}: environment variable ${s.env} is not set`);
    return v;
  }
  if (s.file !== undefined) {
    try {
      const real = confinedSecretFile(String(s.file));
      const fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      try {
        return fs.readFileSync(fd, 'utf8').replace(/\r?\n$/, '');
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new Error(`${where}: cannot read secret file ${s.file}: ${code ?? (e as Error).message}`);
    }
  }
  if (s.sealed !== undefined) {
    try {
      return openSynthSeal(s.sealed);
    } catch (e) {
      throw new Error(`${where}: ${(e as Error).message}`);
    }
  }
  throw new Error(`${where}: a secret has no source`);
}
