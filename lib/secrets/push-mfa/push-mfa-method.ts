import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check } from '../../core/constructs/validation';
import { checkOptBoolean, checkOptString, checkSegmentName } from '../prop-checks';
import { SecretsProvider } from '../provider';

/** Props of a push-MFA method. */
export interface PushMfaMethodProps extends ResourceProps {
  /** Unique name of the method (release 1.13.0 and later). */
  readonly methodName: string;
  /** Secret key from the push provider (write-only: its drift is not detected). */
  readonly secretKey: SecretValue;
  /** Integration key from the push provider (write-only: its drift is not detected). */
  readonly integrationKey: SecretValue;
  /** API hostname of the push provider. */
  readonly apiHostname: string;
  /**
   * Template mapping identity names to the provider's usernames (values in double braces, e.g.
   * `{{identity.entity.name}}`); blank uses the entity's name as is.
   * @default ''
   */
  readonly usernameFormat?: string;
  /**
   * Extra information sent with the push (`push_info`, URL-encoded key/value pairs).
   * @default ''
   */
  readonly pushInfo?: string;
  /**
   * Whether users are reminded to use the passcode.
   * @default false
   */
  readonly usePasscode?: boolean;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A push-MFA method (`/identity/mfa/method/pushmfa`), identified by a UUID the service assigns
 * (output `methodId`). It cannot be deleted while a login enforcement uses it.
 *
 * @example
 * new secrets.PushMfaMethod(stack, 'push', {
 *   methodName: 'push',
 *   apiHostname: 'api-12345678.push.example.com',
 *   integrationKey: SecretValue.fromEnv('PUSH_INTEGRATION_KEY'),
 *   secretKey: SecretValue.fromEnv('PUSH_SECRET_KEY'),
 * });
 */
export class PushMfaMethod extends Resource {
  private readonly props: PushMfaMethodProps;

  constructor(scope: Construct, id: string, props: PushMfaMethodProps) {
    super(scope, id, 'secrets.PushMfaMethod', 'secrets', props, props.provider);
    this.props = props;
    checkSegmentName(this, 'methodName', props.methodName);
    checkOptString(this, 'usernameFormat', props.usernameFormat);
    checkOptBoolean(this, 'usePasscode', props.usePasscode);
    check(typeof props.apiHostname === 'string' && /^[A-Za-z0-9.-]+(:\d+)?$/.test(props.apiHostname), this, 'apiHostname', `"${props.apiHostname}" must be a host name`);
    check(SecretValue.isSecretValue(props.secretKey), this, 'secretKey', 'must be a SecretValue');
    check(SecretValue.isSecretValue(props.integrationKey), this, 'integrationKey', 'must be a SecretValue');
  }

  /** The method's UUID, resolved when converge applies. */
  public get methodId(): any {
    return this._attrRef('methodId');
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      methodName: p.methodName, secretKey: p.secretKey, integrationKey: p.integrationKey, apiHostname: p.apiHostname,
      usernameFormat: p.usernameFormat ?? '', pushInfo: p.pushInfo ?? '', usePasscode: p.usePasscode ?? false,
    };
  }
}
