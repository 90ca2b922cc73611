import { Token } from 'cdktf';
import { attrOfToken } from './attr-token';
import { sealForSynth } from '../crypto/synth-seal';
import { AttrRef } from '../model';
import { convergeOwnVariable } from '../reserved-variables';

/**
 * A secret input. It is synthesized as where to find it (an environment variable, a file),
 * never as its value; the reconciler reads it at plan and apply time.
 *
 * @example
 * const password = SecretValue.fromEnv('DB_PASSWORD');
 */
export class SecretValue {
  /**
   * Reads the secret from an environment variable of the process that runs `converge`. Never one of
   * converge's own settings (`CONVERGE_*`) nor the state backend's (`PG*`).
   */
  public static fromEnv(variableName: string): SecretValue {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variableName)) {
      throw new Error(`SecretValue.fromEnv: "${variableName}" is not a valid environment variable name`);
    }
    const own = convergeOwnVariable(variableName);
    if (own) throw new Error(`SecretValue.fromEnv: ${own}`);
    return new SecretValue({ env: variableName });
  }

  /**
   * Reads the secret from a file (trailing newline removed) on the machine that runs `converge`: a
   * regular file in the app directory (where `cdktf.json` is), or in a directory the command line
   * names (`converge plan --secret-file-dir DIR`); never under `/proc`, `/sys` or `/dev`.
   */
  public static fromFile(filePath: string): SecretValue {
    if (!filePath) throw new Error('SecretValue.fromFile: the path is empty');
    return new SecretValue({ file: filePath });
  }

  /**
   * A secret written in the app. Still never synthesized in clear: it is encrypted under the
   * state key (`CONVERGE_STATE_KEY`, or `.converge/state.key`). Prefer `fromEnv`.
   */
  public static unsafePlainText(value: string): SecretValue {
    return new SecretValue({ sealed: sealForSynth(value) });
  }

  /**
   * A secret another converge construct produces: a sensitive attribute (a generated TOTP key's
   * `url`, a value a data source read, `KvSecretData.field('password')`, a credential a data source
   * generates), as aws-cdk-lib's `SecretValue.resourceAttribute`. Synthesized as a reference, never
   * as a value; the reconciler resolves it when it plans or applies, and it stays a secret end to end:
   * masked in plans and output, an HMAC in state, never logged.
   * @param value an attribute of a converge construct (a string token), e.g. `totpKey.url`
   */
  public static resourceAttribute(value: string): SecretValue {
    const ref = typeof value === 'string' && Token.isUnresolved(value) ? attrOfToken(value, 'SecretValue.resourceAttribute') : undefined;
    if (!ref) {
      throw new Error('SecretValue.resourceAttribute: the value must be an attribute of a converge construct (e.g. totpKey.url, ' +
        "kvSecretData.field('password')); for a secret of your own use SecretValue.fromEnv or fromFile");
    }
    return new SecretValue({ ref });
  }

  /** Whether an object is a SecretValue. */
  public static isSecretValue(x: any): boolean {
    return x instanceof SecretValue;
  }

  private constructor(private readonly source: { env?: string; file?: string; sealed?: string; ref?: AttrRef }) {}

  /**
   * What is synthesized: the source of the secret, never its value; a construct's attribute as a
   * reference marked secret (the reconciler keeps its value secret, whatever the attribute).
   */
  public toJSON(): any {
    if (this.source.ref) return { ...this.source.ref, secret: true };
    return { $secret: { ...this.source } };
  }

  /** A SecretValue never renders as a string. */
  public toString(): string {
    return '(sensitive)';
  }
}
