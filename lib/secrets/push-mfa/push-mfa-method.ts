import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { KindSchema } from '../../core/schema';
import { SecretsProvider } from '../provider';
import { PUSH_MFA_METHOD } from './push-mfa-method.schema';

/** Props of a push-MFA method. */
export interface PushMfaMethodProps extends ResourceProps {
  /** Unique name of the method (release 1.13.0 and later). */
  readonly methodName: string;
  /** Secret key from the push provider (compared by HMAC with what the service answers, never shown). */
  readonly secretKey: SecretValue;
  /** Integration key from the push provider (compared by HMAC with what the service answers, never shown). */
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
  constructor(scope: Construct, id: string, props: PushMfaMethodProps) {
    super(scope, id, PUSH_MFA_METHOD.kind, PUSH_MFA_METHOD.api, props, props.provider);
  }

  /** The method's UUID, known once applied. */
  public get methodId(): string {
    return this._attrString('methodId');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return PUSH_MFA_METHOD;
  }
}
