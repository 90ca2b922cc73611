import { sealForSynth } from '../crypto/synth-seal';

/**
 * A secret input. It is synthesized as where to find it (an environment variable, a file),
 * never as its value; the reconciler reads it at plan and apply time.
 *
 * @example
 * const password = SecretValue.fromEnv('DB_PASSWORD');
 */
export class SecretValue {
  /** Reads the secret from an environment variable of the process that runs `converge`. */
  public static fromEnv(variableName: string): SecretValue {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variableName)) {
      throw new Error(`SecretValue.fromEnv: "${variableName}" is not a valid environment variable name`);
    }
    return new SecretValue({ env: variableName });
  }

  /** Reads the secret from a file (trailing newline removed) on the machine that runs `converge`. */
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

  /** Whether an object is a SecretValue. */
  public static isSecretValue(x: any): boolean {
    return x instanceof SecretValue;
  }

  private constructor(private readonly source: { env?: string; file?: string; sealed?: string }) {}

  /** What is synthesized: the source of the secret, never its value. */
  public toJSON(): any {
    return { $secret: { ...this.source } };
  }

  /** A SecretValue never renders as a string. */
  public toString(): string {
    return '(sensitive)';
  }
}
