import { Construct, IConstruct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check, durationSeconds } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { DIRECTORY_MOUNT, mountFromRef, mountPathOf, useMountRef } from '../shared/mount-ref';
import { SecretsProvider } from '../provider';
import { ISecretsMount } from '../sys/secrets-mount';
import { DEFAULT_PASSWORD_LENGTH, DIRECTORY_CONFIG, PASSWORD_PLACEHOLDER } from './directory-config.schema';

/** The configuration of a directory engine mount, which its roles and library sets need. */
export interface IDirectoryConfig extends IConstruct {
  /** Mount path of the directory engine. */
  readonly mount: string;
}

/** Props of the directory engine's configuration (`{mount}/config`). */
export interface DirectoryConfigProps extends ResourceProps {
  /**
   * Mount path of the directory engine.
   * @default 'directory'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app, of type `directory`), instead of
   * `mount`: this construct is created after it, destroyed before it, and planned as new until it exists.
   * @default - the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
  /** Bind object DN used for user and group search and for password changes. */
  readonly binddn: string;
  /**
   * Bind password. Write-only: sent on create and when its value changes, never re-sent
   * otherwise (after a rotate-root only the service knows it); a change made outside converge is undetectable.
   */
  readonly bindpass: SecretValue;
  /**
   * LDAP server URL; a comma-separated list is tried in order.
   * @default 'ldap://127.0.0.1'
   */
  readonly url?: string;
  /**
   * Base DN for user search.
   * @default ''
   */
  readonly userdn?: string;
  /**
   * Domain used to build the UPN `[binddn]@domain`.
   * @default ''
   */
  readonly upndomain?: string;
  /**
   * CA certificate (x509 PEM).
   * @default ''
   */
  readonly certificate?: string;
  /**
   * Skip server certificate verification.
   * @default false
   */
  readonly insecureTls?: boolean;
  /**
   * Issue StartTLS after an unencrypted connection.
   * @default false
   */
  readonly starttls?: boolean;
  /**
   * Minimum TLS version.
   * @default 'tls12'
   */
  readonly tlsMinVersion?: string;
  /**
   * Maximum TLS version.
   * @default 'tls12'
   */
  readonly tlsMaxVersion?: string;
  /**
   * Request timeout.
   * @default '90s'
   */
  readonly requestTimeout?: string;
  /**
   * Default password ttl; after it the password is rotated on the next request.
   * @default '768h'
   */
  readonly ttl?: string;
  /**
   * Longest ttl any role may set.
   * @default '768h'
   */
  readonly maxTtl?: string;
  /**
   * Password policy name; excludes `length` and `formatter`.
   * @default ''
   */
  readonly passwordPolicy?: string;
  /**
   * (Deprecated by the service) password length, at least 14; excludes `passwordPolicy`.
   * @default 64 (without a password policy)
   */
  readonly length?: number;
  /**
   * (Deprecated by the service) text containing `{{PASSWORD}}` exactly once; excludes `passwordPolicy`.
   * @default ''
   */
  readonly formatter?: string;
  /**
   * How close the directory's last-set time must be to the service's own rotation for the service to
   * consider itself the last rotator.
   * @default '5s'
   */
  readonly lastRotationTolerance?: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * The directory engine's connection to the directory and its password rules. Deleting it unconfigures the engine.
 *
 * @example
 * new secrets.DirectoryConfig(stack, 'ldap', {
 *   url: 'ldaps://ldap.example.com',
 *   binddn: 'cn=vault,ou=services,dc=example,dc=com',
 *   bindpass: SecretValue.fromEnv('LDAP_BIND_PASSWORD'),
 *   userdn: 'ou=services,dc=example,dc=com',
 * });
 */
export class DirectoryConfig extends Resource implements IDirectoryConfig {
  /** Mount path of the engine. */
  public readonly mount: string;

  constructor(scope: Construct, id: string, props: DirectoryConfigProps) {
    super(scope, id, DIRECTORY_CONFIG.kind, DIRECTORY_CONFIG.api, mountFromRef(props), props.provider);
    useMountRef(this, props, DIRECTORY_MOUNT);
    this.mount = mountPathOf(props, DIRECTORY_MOUNT);
    check(!(props.passwordPolicy && (props.length !== undefined || props.formatter !== undefined)), this, 'passwordPolicy',
      'excludes `length` and `formatter`: give either a password policy or length/formatter');
    const length = props.length ?? DEFAULT_PASSWORD_LENGTH;
    check(props.formatter === undefined || length - (props.formatter.length - PASSWORD_PLACEHOLDER.length) >= 8, this, 'formatter',
      `leaves fewer than 8 generated characters in a password of length ${length}`);
    const ttl = durationSeconds(props.ttl ?? '768h');
    const max = durationSeconds(props.maxTtl ?? '768h');
    check(max === 0 || ttl <= max, this, 'ttl', `"${props.ttl ?? '768h'}" must not be longer than maxTtl "${props.maxTtl ?? '768h'}"`);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return DIRECTORY_CONFIG;
  }
}
