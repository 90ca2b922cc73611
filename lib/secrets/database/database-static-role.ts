import { Construct, IConstruct } from 'constructs';
import { KindSchema } from '../../core/schema';
import { ExistingPathObject } from '../shared/existing-path-object';
import { SecretsProvider } from '../provider';
import { DatabaseRoleBase, DatabaseRoleBaseProps } from './database-role-base';
import { DATABASE_STATIC_ROLE } from './database-static-role.schema';

/** A static role of the database engine: one this app manages, or one looked up with `DatabaseStaticRole.fromName`. */
export interface IDatabaseStaticRole extends IConstruct {
  /** Mount path of the database engine. */
  readonly mount: string;
  /** The role name (`{mount}/static-creds/<name>` answers its credentials). */
  readonly roleName: string;
}

/** Props of a static database role (`{mount}/static-roles/<name>`). */
export interface DatabaseStaticRoleProps extends DatabaseRoleBaseProps {
  /** The existing database user whose password the service rotates. A change replaces the role. */
  readonly username: string;
  /** How often the password is rotated (`"24h"`, `"3600"`), at least 5 seconds. */
  readonly rotationPeriod: string;
  /**
   * Statements that set the new password (`{{name}}`, `{{password}}`).
   * @default [] (the plugin's default `ALTER ROLE ... WITH PASSWORD`)
   */
  readonly rotationStatements?: string[];
}

/**
 * A static role of the database engine: an existing database user whose password the service
 * rotates at creation, every `rotationPeriod` and on demand. Deleting the role leaves the user.
 * `DatabaseStaticCredentials` reads its current password for other constructs.
 *
 * @example
 * new secrets.DatabaseStaticRole(stack, 'reporting', {
 *   dbName: 'app-db',
 *   name: 'reporting',
 *   username: 'reporting',
 *   rotationPeriod: '24h',
 * });
 */
export class DatabaseStaticRole extends DatabaseRoleBase implements IDatabaseStaticRole {
  /**
   * A static role that exists outside this app, by mount and name: read at plan time (the plan fails,
   * naming this construct, when it does not exist), never changed nor deleted.
   * @param mount mount path of the database engine (e.g. `database`)
   * @param name the static role name
   * @param provider how to reach the secrets service (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider): IDatabaseStaticRole {
    return new ExistingDatabaseStaticRole(scope, id, mount, name, provider);
  }

  constructor(scope: Construct, id: string, props: DatabaseStaticRoleProps) {
    super(scope, id, DATABASE_STATIC_ROLE.kind, props);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return DATABASE_STATIC_ROLE;
  }
}

/** A static role looked up by mount and name (`DatabaseStaticRole.fromName`). */
class ExistingDatabaseStaticRole extends ExistingPathObject implements IDatabaseStaticRole {
  constructor(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider) {
    super(scope, id, DATABASE_STATIC_ROLE, 'static-roles', mount, name, provider);
  }

  public get roleName(): string {
    return this._name;
  }
}
