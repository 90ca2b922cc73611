import { Construct, IConstruct } from 'constructs';
import { check, durationSeconds } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { ExistingPathObject } from '../shared/existing-path-object';
import { SecretsProvider } from '../provider';
import { DatabaseRoleBase, DatabaseRoleBaseProps } from './database-role-base';
import { DATABASE_ROLE } from './database-role.schema';

/** A dynamic role of the database engine: one this app manages, or one looked up with `DatabaseRole.fromName`. */
export interface IDatabaseRole extends IConstruct {
  /** Mount path of the database engine. */
  readonly mount: string;
  /** The role name (`{mount}/creds/<name>` issues its credentials). */
  readonly roleName: string;
}

/** Props of a dynamic database role (`{mount}/roles/<name>`). */
export interface DatabaseRoleProps extends DatabaseRoleBaseProps {
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
}

/**
 * A dynamic role of the database engine: each credentials request creates a database user with
 * the creation statements, leased for `defaultTtl` and dropped by the revocation statements when
 * the lease ends. `DatabaseCredentials` reads such credentials for other constructs.
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
export class DatabaseRole extends DatabaseRoleBase implements IDatabaseRole {
  /**
   * A dynamic role that exists outside this app, by mount and name: read at plan time (the plan fails,
   * naming this construct, when it does not exist), never changed nor deleted.
   * @param mount mount path of the database engine (e.g. `database`)
   * @param name the role name
   * @param provider how to reach the secrets service (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider): IDatabaseRole {
    return new ExistingDatabaseRole(scope, id, mount, name, provider);
  }

  constructor(scope: Construct, id: string, props: DatabaseRoleProps) {
    super(scope, id, DATABASE_ROLE.kind, props);
    check(props.creationStatements.length > 0, this, 'creationStatements', 'must hold at least one statement');
    const ttl = durationSeconds(props.defaultTtl ?? '0s');
    const max = durationSeconds(props.maxTtl ?? '0s');
    check(max === 0 || ttl <= max, this, 'defaultTtl', `"${props.defaultTtl}" must not be longer than maxTtl "${props.maxTtl}"`);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return DATABASE_ROLE;
  }
}

/** A dynamic role looked up by mount and name (`DatabaseRole.fromName`). */
class ExistingDatabaseRole extends ExistingPathObject implements IDatabaseRole {
  constructor(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider) {
    super(scope, id, DATABASE_ROLE, 'roles', mount, name, provider);
  }

  public get roleName(): string {
    return this._name;
  }
}
