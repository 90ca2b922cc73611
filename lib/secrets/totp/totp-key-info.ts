import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { checkMount } from '../kv/kv-validation';
import { SecretsProvider } from '../provider';

/** Props of the TotpKeyInfo data source. */
export interface TotpKeyInfoProps {
  /**
   * Mount path of the TOTP engine.
   * @default 'totp'
   */
  readonly mount?: string;
  /** Name of the key. */
  readonly name: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * Reads a TOTP key's public fields at plan time. Outputs: `issuer`, `accountName`, `algorithm`,
 * `digits`, `period`. A missing key fails the plan.
 *
 * @example
 * new secrets.TotpKeyInfo(stack, 'ann-mfa', { name: 'ann' });
 */
export class TotpKeyInfo extends DataSource {
  private readonly props: TotpKeyInfoProps;

  constructor(scope: Construct, id: string, props: TotpKeyInfoProps) {
    super(scope, id, 'secrets.TotpKeyInfo', 'secrets', props.provider, props);
    this.props = props;
    checkMount(this, props.mount ?? 'totp');
    check(typeof props.name === 'string' && /^[^/]+$/.test(props.name), this, 'name', `"${props.name}" must be a non-empty name without "/"`);
  }

  /** A reference to one output (`issuer`, `accountName`, `algorithm`, `digits`, `period`). */
  public attribute(name: string): any {
    return this._attrRef(name);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return { mount: this.props.mount ?? 'totp', name: this.props.name };
  }
}
