import { Construct, IConstruct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { ExistingPathObject } from '../shared/existing-path-object';
import { DATABASE_MOUNT, mountFromRef, mountPathOf, useMountRef } from '../shared/mount-ref';
import { ISecretsMount } from '../sys/secrets-mount';
import { SecretsProvider } from '../provider';
import { DATABASE_CONNECTION } from './database-connection.schema';

/**
 * A connection of the database engine: one this app manages, or one looked up with
 * `DatabaseConnection.fromName`. Roles take it to name their connection and be ordered after it.
 */
export interface IDatabaseConnection extends IConstruct {
  /** Mount path of the database engine. */
  readonly mount: string;
  /** The connection name (the roles' `dbName`). */
  readonly connectionName: string;
}

/** Props of a database engine connection (`{mount}/config/<name>`). */
export interface DatabaseConnectionProps extends ResourceProps {
  /**
   * Mount path of the database engine.
   * @default 'database'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app, of type `database`), instead of `mount`:
   * this construct is created after it, destroyed before it, and planned as new until it exists.
   * @default - the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
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
export class DatabaseConnection extends Resource implements IDatabaseConnection {
  /**
   * A connection that exists outside this app, by mount and name: read at plan time (the plan fails,
   * naming this construct, when it does not exist), never changed nor deleted. Roles may use it.
   * @param mount mount path of the database engine (e.g. `database`)
   * @param name the connection name
   * @param provider how to reach the secrets service (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider): IDatabaseConnection {
    return new ExistingDatabaseConnection(scope, id, mount, name, provider);
  }

  /** Mount path of the engine. */
  public readonly mount: string;
  /** Connection name (the roles' `dbName`). */
  public readonly name: string;
  /** Connection name (the roles' `dbName`). */
  public readonly connectionName: string;

  constructor(scope: Construct, id: string, props: DatabaseConnectionProps) {
    super(scope, id, DATABASE_CONNECTION.kind, DATABASE_CONNECTION.api, mountFromRef(props), props.provider);
    useMountRef(this, props, DATABASE_MOUNT);
    this.mount = mountPathOf(props, DATABASE_MOUNT);
    this.name = props.name;
    this.connectionName = props.name;
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
  protected _schema(): KindSchema {
    return DATABASE_CONNECTION;
  }
}

/** A connection looked up by mount and name (`DatabaseConnection.fromName`). */
class ExistingDatabaseConnection extends ExistingPathObject implements IDatabaseConnection {
  constructor(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider) {
    super(scope, id, DATABASE_CONNECTION, 'config', mount, name, provider);
  }

  public get connectionName(): string {
    return this._name;
  }
}
