import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { DatabaseConnection } from './database-connection';
import { roleTarget } from './database-role-target';
import { SecretsProvider } from '../provider';
import { normalDurationString } from '../../core/duration';
import { checkSeconds, checkSegmentName, checkStringList } from '../prop-checks';

/** The kind of credential a database role issues. */
export enum DatabaseCredentialType {
  /** A generated password. */
  PASSWORD = 'password',
  /** A generated RSA private key (plugins that support it). */
  RSA_PRIVATE_KEY = 'rsa_private_key',
}

/** Props of a dynamic database role (`{mount}/roles/<name>`). */
export interface DatabaseRoleProps extends ResourceProps {
  /**
   * Mount path of the database engine (taken from `connection` when given).
   * @default 'database'
   */
  readonly mount?: string;
  /** Role name (a path segment). A change replaces the role. */
  readonly name: string;
  /**
   * The connection the role uses; sets `dbName` and `mount` and orders the role after it.
   * @default - give `dbName`
   */
  readonly connection?: DatabaseConnection;
  /**
   * Name of the connection the role uses (when `connection` is not given).
   * @default - the name of `connection`
   */
  readonly dbName?: string;
  /**
   * Lease ttl of generated credentials (`"1h"`, `"3600"`); `"0s"` uses the engine default.
   * @default '0s'
   */
  readonly defaultTtl?: string;
  /**
   * Maximum lease ttl (`"0s"`: the mount maximum); never longer than the mount's.
   * @default '0s'
   */
  readonly maxTtl?: string;
  /** Statements that create the user: `{{name}}`, `{{username}}`, `{{password}}`, `{{expiration}}` templates. */
  readonly creationStatements: string[];
  /**
   * Statements run when the lease ends.
   * @default [] (the plugin's default: revoke privileges, drop the user)
   */
  readonly revocationStatements?: string[];
  /**
   * Statements run when creation fails part-way.
   * @default []
   */
  readonly rollbackStatements?: string[];
  /**
   * Statements run when a lease is renewed.
   * @default []
   */
  readonly renewStatements?: string[];
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
 * A dynamic role of the database engine: each credentials request creates a database user with
 * the creation statements, leased for `defaultTtl` and dropped by the revocation statements when
 * the lease ends.
 *
 * @example
 * const db = new secrets.DatabaseConnection(stack, 'pg', {
 *   name: 'app-db',
 *   connectionUrl: 'postgresql://{{username}}:{{password}}@db:5432/app',
 *   username: 'vault_root',
 *   password: SecretValue.fromEnv('DB_ROOT_PASSWORD'),
 *   allowedRoles: ['app'],
 * });
 * new secrets.DatabaseRole(stack, 'app', {
 *   connection: db,
 *   name: 'app',
 *   creationStatements: ["CREATE ROLE \"{{name}}\" WITH LOGIN PASSWORD '{{password}}' VALID UNTIL '{{expiration}}'"],
 *   defaultTtl: '1h',
 *   maxTtl: '24h',
 * });
 */
export class DatabaseRole extends Resource {
  public readonly mount: string;
  public readonly name: string;
  public readonly dbName: string;
  private readonly props: DatabaseRoleProps;

  constructor(scope: Construct, id: string, props: DatabaseRoleProps) {
    super(scope, id, 'secrets.DatabaseRole', 'secrets', props, props.provider);
    this.props = props;
    this.name = props.name;
    checkSegmentName(this, 'name', props.name);
    ({ mount: this.mount, dbName: this.dbName } = roleTarget(this, props));
    const ttl = checkSeconds(this, 'defaultTtl', props.defaultTtl ?? '0s');
    const max = checkSeconds(this, 'maxTtl', props.maxTtl ?? '0s');
    check(max === 0 || ttl <= max, this, 'defaultTtl', `"${props.defaultTtl}" must not be longer than maxTtl "${props.maxTtl}"`);
    check(Array.isArray(props.creationStatements) && props.creationStatements.length > 0, this, 'creationStatements', 'must hold at least one statement');
    checkStringList(this, 'creationStatements', props.creationStatements);
    checkStringList(this, 'revocationStatements', props.revocationStatements ?? []);
    checkStringList(this, 'rollbackStatements', props.rollbackStatements ?? []);
    checkStringList(this, 'renewStatements', props.renewStatements ?? []);
    check(Object.values(DatabaseCredentialType).includes(props.credentialType ?? DatabaseCredentialType.PASSWORD), this,
      'credentialType', `must be one of ${Object.values(DatabaseCredentialType).join(', ')}`);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      mount: this.mount,
      name: this.name,
      dbName: this.dbName,
      defaultTtl: normalDurationString(p.defaultTtl ?? '0s'),
      maxTtl: normalDurationString(p.maxTtl ?? '0s'),
      creationStatements: [...p.creationStatements],
      revocationStatements: [...(p.revocationStatements ?? [])],
      rollbackStatements: [...(p.rollbackStatements ?? [])],
      renewStatements: [...(p.renewStatements ?? [])],
      credentialType: p.credentialType ?? DatabaseCredentialType.PASSWORD,
      credentialConfig: { ...(p.credentialConfig ?? {}) },
    };
  }
}
