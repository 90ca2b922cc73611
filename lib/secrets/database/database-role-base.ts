import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { renderSpec } from '../../core/schema';
import { SecretsProvider } from '../provider';
import { IDatabaseConnection } from './database-connection';
import { checkSameMount, DATABASE_MOUNT, describeMount, mountFromRef, mountPathOf, useMountRef } from '../shared/mount-ref';
import { ISecretsMount } from '../sys/secrets-mount';

/** The kind of credential a database role issues. */
export enum DatabaseCredentialType {
  /** A generated password. */
  PASSWORD = 'password',
  /** A generated RSA private key (plugins that support it). */
  RSA_PRIVATE_KEY = 'rsa_private_key',
}

/** What a dynamic and a static database role both take: where the role lives, its connection, its credential. */
export interface DatabaseRoleBaseProps extends ResourceProps {
  /**
   * Mount path of the database engine (taken from `connection` when given).
   * @default 'database'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app, of type `database`), instead of
   * `mount`: the role is created after it, destroyed before it, and planned as new until it exists.
   * With `connection`, it must be the mount the connection was placed in (the role takes the connection's anyway).
   * @default - the mount of `connection`, else the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
  /** Role name (a path segment). A change replaces the role. */
  readonly name: string;
  /**
   * The connection the role uses (`DatabaseConnection`, or one looked up with `DatabaseConnection.fromName`);
   * sets `dbName` and `mount` and orders the role after it.
   * @default - give `dbName`
   */
  readonly connection?: IDatabaseConnection;
  /**
   * Name of the connection the role uses (when `connection` is not given).
   * @default - the name of `connection`
   */
  readonly dbName?: string;
  /**
   * Kind of credential issued.
   * @default DatabaseCredentialType.PASSWORD
   */
  readonly credentialType?: DatabaseCredentialType;
  /**
   * Credential settings, e.g. `{ password_policy: 'strict' }` (defaults to the connection's policy).
   * @default {}
   */
  readonly credentialConfig?: { [key: string]: string };
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A role of the database engine, dynamic (`DatabaseRole`) or static (`DatabaseStaticRole`): the
 * connection it uses comes from `connection` or `dbName`, and the role is ordered after it.
 */
export abstract class DatabaseRoleBase extends Resource {
  /** Mount path of the engine. */
  public readonly mount: string;
  /** Role name. */
  public readonly name: string;
  /** Role name. */
  public readonly roleName: string;
  /** Name of the connection the role uses. */
  public readonly dbName: string;

  protected constructor(scope: Construct, id: string, kind: string, props: DatabaseRoleBaseProps) {
    super(scope, id, kind, 'secrets', mountFromRef(props), props.provider);
    useMountRef(this, props, DATABASE_MOUNT);
    const connection = props.connection;
    if (connection) checkSameMount(this, props, connection, 'connection');
    this.name = props.name;
    this.roleName = props.name;
    this.mount = connection?.mount ?? mountPathOf(props, DATABASE_MOUNT);
    this.dbName = connection?.connectionName ?? props.dbName ?? '';
    check(!(connection && props.dbName && props.dbName !== connection.connectionName), this, 'dbName',
      `"${props.dbName}" differs from the name of \`connection\` ("${connection?.connectionName}"): give one of them`);
    check(!(connection && props.mount && props.mount !== connection.mount), this, 'mount',
      `"${props.mount}" differs from the mount of \`connection\` (${connection ? describeMount(connection) : ''})`);
    check(this.dbName !== '', this, 'dbName', 'is required (or give `connection`)');
    if (connection) this.node.addDependency(connection);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return renderSpec(this._schema()!.fields, { ...this._props, mount: this.mount, dbName: this.dbName });
  }
}
