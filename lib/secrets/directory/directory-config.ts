import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check, checkInt } from '../../core/constructs/validation';
import { checkMount } from '../kv/kv-validation';
import { checkOptBoolean, checkOptString, checkSeconds } from '../prop-checks';
import { SecretsProvider } from '../provider';
import { normalDurationString } from '../../core/duration';

/** Password length the directory engine uses without a policy, and its minimum. */
const DEFAULT_LENGTH = 64;
const MIN_LENGTH = 14;
const PLACEHOLDER = '{{PASSWORD}}';

/** Props of the directory engine's configuration (`{mount}/config`). */
export interface DirectoryConfigProps extends ResourceProps {
  /**
   * Mount path of the directory engine.
   * @default 'directory'
   */
  readonly mount?: string;
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
export class DirectoryConfig extends Resource {
  public readonly mount: string;
  private readonly props: DirectoryConfigProps;

  constructor(scope: Construct, id: string, props: DirectoryConfigProps) {
    super(scope, id, 'secrets.DirectoryConfig', 'secrets', props, props.provider);
    this.mount = props.mount ?? 'directory';
    this.props = props;
    checkMount(this, this.mount);
    check(typeof props.binddn === 'string' && props.binddn.length > 0, this, 'binddn', 'must not be empty');
    check(SecretValue.isSecretValue(props.bindpass), this, 'bindpass', 'must be a SecretValue');
    checkOptString(this, 'url', props.url);
    checkOptBoolean(this, 'insecureTls', props.insecureTls);
    const policy = props.passwordPolicy ?? '';
    check(!(policy && (props.length !== undefined || props.formatter !== undefined)), this, 'passwordPolicy',
      'excludes `length` and `formatter`: give either a password policy or length/formatter');
    const length = props.length ?? DEFAULT_LENGTH;
    checkInt(this, 'length', length, MIN_LENGTH);
    if (props.formatter !== undefined) {
      check(props.formatter.split(PLACEHOLDER).length === 2, this, 'formatter', `must contain "${PLACEHOLDER}" exactly once`);
      check(length - (props.formatter.length - PLACEHOLDER.length) >= 8, this, 'formatter',
        `leaves fewer than 8 generated characters in a password of length ${length}`);
    }
    checkSeconds(this, 'requestTimeout', props.requestTimeout ?? '90s', 1);
    const ttl = checkSeconds(this, 'ttl', props.ttl ?? '768h');
    const max = checkSeconds(this, 'maxTtl', props.maxTtl ?? '768h');
    check(max === 0 || ttl <= max, this, 'ttl', `"${props.ttl ?? '768h'}" must not be longer than maxTtl "${props.maxTtl ?? '768h'}"`);
    checkSeconds(this, 'lastRotationTolerance', props.lastRotationTolerance ?? '5s');
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    const policy = p.passwordPolicy ?? '';
    return {
      mount: this.mount,
      binddn: p.binddn,
      bindpass: p.bindpass,
      url: p.url ?? 'ldap://127.0.0.1',
      userdn: p.userdn ?? '',
      upndomain: p.upndomain ?? '',
      certificate: p.certificate ?? '',
      insecureTls: p.insecureTls ?? false,
      starttls: p.starttls ?? false,
      tlsMinVersion: p.tlsMinVersion ?? 'tls12',
      tlsMaxVersion: p.tlsMaxVersion ?? 'tls12',
      requestTimeout: normalDurationString(p.requestTimeout ?? '90s'),
      ttl: normalDurationString(p.ttl ?? '768h'),
      maxTtl: normalDurationString(p.maxTtl ?? '768h'),
      passwordPolicy: policy,
      length: policy ? 0 : p.length ?? DEFAULT_LENGTH,
      formatter: p.formatter ?? '',
      lastRotationTolerance: normalDurationString(p.lastRotationTolerance ?? '5s'),
    };
  }
}
