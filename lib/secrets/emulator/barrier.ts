import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'crypto';

/**
 * Seals engine state for the data directory, as the real service's storage barrier does: the
 * state file never holds a secret in clear. The key is derived from the root token.
 */
export class Barrier {
  private readonly key: Buffer;

  constructor(rootToken: string) {
    this.key = createHmac('sha256', rootToken).update('secrets-emulator-barrier-v1').digest();
  }

  public seal(value: unknown): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([c.update(JSON.stringify(value), 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64');
  }

  public open(sealed: string): unknown {
    const buf = Buffer.from(sealed, 'base64');
    const d = createDecipheriv('aes-256-gcm', this.key, buf.subarray(0, 12));
    d.setAuthTag(buf.subarray(12, 28));
    try {
      return JSON.parse(Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8'));
    } catch {
      throw new Error('secrets emulator: cannot open the stored state (was it written with another root token?)');
    }
  }
}
