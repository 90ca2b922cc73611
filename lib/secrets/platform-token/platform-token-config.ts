import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { KindSchema } from '../../core/schema';
import { PLATFORM_TOKEN_MOUNT, mountFromRef, mountPathOf, useMountRef } from '../shared/mount-ref';
import { SecretsProvider } from '../provider';
import { ISecretsMount } from '../sys/secrets-mount';
import { PLATFORM_TOKEN_CONFIG } from './platform-token-config.schema';

/** Props of a platform-token engine's configuration. */
export interface PlatformTokenConfigProps extends ResourceProps {
  /**
   * Mount path of the platform-token engine.
   * @default 'platform'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app, of type `platform`), instead of `mount`:
   * this construct is created after it, destroyed before it, and planned as new until it exists.
   * @default - the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
  /**
   * Address of the platform (`protocol://host:port` for the self-hosted edition).
   * @default 'https://app.terraform.io'
   */
  readonly address?: string;
  /**
   * A platform token allowed to manage the organization, team and user tokens the roles issue
   * (write-only: sent on create and when it changes; its drift cannot be detected). With the
   * bundled emulator, the platform emulator's administrator token.
   * @default - none
   */
  readonly token?: SecretValue;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * The configuration of a platform-token engine (`{mount}/config`): where the platform is and
 * the token the engine uses there. Removing it deletes the configuration.
 *
 * @example
 * new secrets.PlatformTokenConfig(stack, 'platform-tokens', {
 *   token: SecretValue.fromEnv('PLATFORM_ADMIN_TOKEN'),
 * });
 */
export class PlatformTokenConfig extends Resource {
  /** Mount path of the engine. */
  public readonly mount: string;

  constructor(scope: Construct, id: string, props: PlatformTokenConfigProps = {}) {
    super(scope, id, PLATFORM_TOKEN_CONFIG.kind, PLATFORM_TOKEN_CONFIG.api, mountFromRef(props), props.provider);
    useMountRef(this, props, PLATFORM_TOKEN_MOUNT);
    this.mount = mountPathOf(props, PLATFORM_TOKEN_MOUNT);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return PLATFORM_TOKEN_CONFIG;
  }
}
