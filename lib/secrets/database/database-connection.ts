import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check } from '../../core/constructs/validation';
import { checkMount } from '../kv/kv-validation';
import { checkOptBoolean, checkOptString, checkSegmentName, checkStringList } from '../prop-checks';
import { SecretsProvider } from '../provider';
import { stringSet } from '../../core/string-set';

/** Props of a database engine connection (`{mount}/config/<name>`). */
export interface DatabaseConnectionProps extends ResourceProps {
  /**
   * Mount path of the database engine.
   * @default 'database'
   */
  readonly mount?: string;
  /** Connection name (a path segment). A change replaces the connection. */
  readonly name: string;
  /**
   * The database plugin, e.g. `postgresql-database-plugin`.
   * @default 'postgresql-database-plugin'
   */
  readonly pluginName?: string;
  /**
   * Plugin version; empty selects the built-in one.
   * @default ''
   */
  readonly pluginVersion?: string;
  /**
   * Whether the service connects once when the connection is written (the write fails when it cannot).
   * Not returned by the service: compared with the last apply.
   * @default true
   */
  readonly verifyConnection?: boolean;
  /**
   * Roles allowed to use this connection (`*` for any). Checked when credentials are requested.
   * @default []
   */
  readonly allowedRoles?: string[];
  /**
   * Statements that change the root user's password on rotate-root (`{{username}}`, `{{password}}`).
   * @default [] (the plugin's default `ALTER ROLE ... WITH PASSWORD`)
   */
  readonly rootRotationStatements?: string[];
  /**
   * Password policy name for generated passwords; empty uses the default policy
   * (20 characters, at least one upper-case letter, lower-case letter, digit and dash).
   * @default ''
   */
  readonly passwordPolicy?: string;
  /** Connection URL, with `{{username}}` and `{{password}}` templates, e.g. `postgresql://{{username}}:{{password}}@db:5432/app`. */
  readonly connectionUrl: string;
  /**
   * Root user name filled into `{{username}}`.
   * @default ''
   */
  readonly username?: string;
  /**
   * Root user password filled into `{{password}}`. Write-only: sent on create and when its value
   * changes, never re-sent otherwise (after a root rotation only the service knows the current
   * one). The service never returns it, so a change made outside converge is undetectable.
   * @default - none
   */
  readonly password?: SecretValue;
  /**
   * Whether the username and password are put into the URL without escaping.
   * @default false
   */
  readonly disableEscaping?: boolean;
  /**
   * Rotate the root password once right after creation, so that only the service knows it.
   * Requires `username` and `password`.
   * @default false
   */
  readonly rotateRootOnCreate?: boolean;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A connection of the database engine: how the service reaches a database as its root user.
 *
 * @example
 * new secrets.DatabaseConnection(stack, 'pg', {
 *   name: 'app-db',
 *   connectionUrl: 'postgresql://{{username}}:{{password}}@db:5432/app',
 *   username: 'vault_root',
 *   password: SecretValue.fromEnv('DB_ROOT_PASSWORD'),
 *   allowedRoles: ['app'],
 *   rotateRootOnCreate: true,
 * });
 */
export class DatabaseConnection extends Resource {
  /** Mount path of the engine. */
  public readonly mount: string;
  /** Connection name (the roles' `dbName`). */
  public readonly name: string;
  private readonly props: DatabaseConnectionProps;

  constructor(scope: Construct, id: string, props: DatabaseConnectionProps) {
    super(scope, id, 'secrets.DatabaseConnection', 'secrets', props, props.provider);
    this.mount = props.mount ?? 'database';
    this.name = props.name;
    this.props = props;
    checkMount(this, this.mount);
    checkSegmentName(this, 'name', props.name);
    checkOptString(this, 'username', props.username);
    checkOptBoolean(this, 'verifyConnection', props.verifyConnection);
    check(typeof props.connectionUrl === 'string' && props.connectionUrl.length > 0, this, 'connectionUrl', 'must not be empty');
    check((props.pluginName ?? 'x').length > 0, this, 'pluginName', 'must not be empty');
    checkStringList(this, 'allowedRoles', props.allowedRoles ?? []);
    checkStringList(this, 'rootRotationStatements', props.rootRotationStatements ?? []);
    check(props.password === undefined || SecretValue.isSecretValue(props.password), this, 'password', 'must be a SecretValue');
    if (props.rotateRootOnCreate) {
      check(!!props.username, this, 'rotateRootOnCreate', 'needs `username` (the root user whose password is rotated)');
      check(props.password !== undefined, this, 'rotateRootOnCreate', 'needs `password` (the service connects with it before rotating)');
    }
  }

  /** The `{mount}/config/<name>` path. */
  public get path(): string {
    return `${this.mount}/config/${this.name}`;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      mount: this.mount,
      name: this.name,
      pluginName: p.pluginName ?? 'postgresql-database-plugin',
      pluginVersion: p.pluginVersion ?? '',
      verifyConnection: p.verifyConnection ?? true,
      allowedRoles: stringSet(p.allowedRoles),
      rootRotationStatements: [...(p.rootRotationStatements ?? [])],
      passwordPolicy: p.passwordPolicy ?? '',
      connectionUrl: p.connectionUrl,
      username: p.username ?? '',
      ...(p.password !== undefined ? { password: p.password } : {}),
      disableEscaping: p.disableEscaping ?? false,
      rotateRootOnCreate: p.rotateRootOnCreate ?? false,
    };
  }
}
