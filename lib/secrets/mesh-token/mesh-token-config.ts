import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { MESH_TOKEN_MOUNT, mountFromRef, mountPathOf, useMountRef } from '../shared/mount-ref';
import { SecretsProvider } from '../provider';
import { ISecretsMount } from '../sys/secrets-mount';
import { MESH_TOKEN_CONFIG } from './mesh-token-config.schema';

/** How the secrets service talks to the mesh. */
export enum MeshScheme {
  /** Plain HTTP. */
  HTTP = 'http',
  /** HTTPS. */
  HTTPS = 'https',
}

/** Props of a mesh-token engine's access configuration. */
export interface MeshTokenConfigProps extends ResourceProps {
  /**
   * Mount path of the mesh-token engine.
   * @default 'mesh'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app, of type `mesh`), instead of `mount`:
   * this construct is created after it, destroyed before it, and planned as new until it exists.
   * @default - the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
  /** Address of the mesh, `host:port`. */
  readonly address: string;
  /**
   * Scheme of the address.
   * @default MeshScheme.HTTP
   */
  readonly scheme?: MeshScheme;
  /**
   * A management token of the mesh (write-only; its drift cannot be detected). Without it the
   * service bootstraps the mesh's ACL system and keeps the bootstrap token.
   * @default - none: bootstrap
   */
  readonly token?: SecretValue;
  /**
   * CA certificate (x509 PEM) to verify the mesh.
   * @default ''
   */
  readonly caCert?: string;
  /**
   * Client certificate (x509 PEM); requires `clientKey`.
   * @default ''
   */
  readonly clientCert?: string;
  /**
   * Client key (x509 PEM, write-only); requires `clientCert`.
   * @default - none
   */
  readonly clientKey?: SecretValue;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * The access configuration of a mesh-token engine (`{mount}/config/access`). The service has
 * no delete for it: removing the construct leaves it in place until the mount is removed.
 *
 * @example
 * new secrets.MeshTokenConfig(stack, 'mesh-tokens', {
 *   address: 'mesh.example.com:8501',
 *   scheme: secrets.MeshScheme.HTTPS,
 *   token: SecretValue.fromEnv('MESH_MANAGEMENT_TOKEN'),
 * });
 */
export class MeshTokenConfig extends Resource {
  /** Mount path of the engine. */
  public readonly mount: string;

  constructor(scope: Construct, id: string, props: MeshTokenConfigProps) {
    super(scope, id, MESH_TOKEN_CONFIG.kind, MESH_TOKEN_CONFIG.api, mountFromRef(props), props.provider);
    useMountRef(this, props, MESH_TOKEN_MOUNT);
    this.mount = mountPathOf(props, MESH_TOKEN_MOUNT);
    check(!!props.clientCert === !!props.clientKey, this, 'clientCert', 'and clientKey must be given together');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return MESH_TOKEN_CONFIG;
  }
}
