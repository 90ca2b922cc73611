import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { TOTP_MOUNT, mountFromRef, useMountRef } from '../shared/mount-ref';
import { SecretsProvider } from '../provider';
import { ISecretsMount } from '../sys/secrets-mount';
import { TOTP_KEY_INFO } from './totp-key-info.schema';

/** Props of the TotpKeyInfo data source. */
export interface TotpKeyInfoProps {
  /**
   * Mount path of the TOTP engine.
   * @default 'totp'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app, of type `totp`), instead of `mount`:
   * this construct is read after it (during the apply that creates it).
   * @default - the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
  /** Name of the key. */
  readonly name: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * Reads a TOTP key's public fields at plan time. A missing key fails the plan.
 *
 * @example
 * const info = new secrets.TotpKeyInfo(stack, 'ann-mfa', { name: 'ann' });
 * // info.issuer, info.digits, … are read at plan time and can feed other constructs.
 */
export class TotpKeyInfo extends DataSource {
  constructor(scope: Construct, id: string, props: TotpKeyInfoProps) {
    super(scope, id, TOTP_KEY_INFO.kind, TOTP_KEY_INFO.api, props.provider, mountFromRef(props));
    useMountRef(this, props, TOTP_MOUNT);
  }

  /** Issuer shown by authenticator apps. */
  public get issuer(): string {
    return this._attrString('issuer');
  }

  /** Account name shown by authenticator apps. */
  public get accountName(): string {
    return this._attrString('accountName');
  }

  /** Hash algorithm (`SHA1`, `SHA256` or `SHA512`). */
  public get algorithm(): string {
    return this._attrString('algorithm');
  }

  /** Digits of a code (6 or 8). */
  public get digits(): number {
    return this._attrNumber('digits');
  }

  /** Seconds a code is valid. */
  public get period(): number {
    return this._attrNumber('period');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return TOTP_KEY_INFO;
  }
}
