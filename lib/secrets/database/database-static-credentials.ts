import { Construct } from 'constructs';
import { SecretsEngineCredentials } from '../shared/engine-role';
import { SecretsProvider } from '../provider';
import { DATABASE_STATIC_CREDENTIALS } from './database-static-credentials.schema';
import { IDatabaseStaticRole } from './database-static-role';

/** Props of the DatabaseStaticCredentials data source. */
export interface DatabaseStaticCredentialsProps {
  /** The static role whose current password is read (`DatabaseStaticRole`, or one looked up with `DatabaseStaticRole.fromName`). */
  readonly role: IDatabaseStaticRole;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * The current credentials of a static database role (`GET {mount}/static-creds/<role>`), read at plan
 * time: reading issues nothing (the password changes only when the service rotates it), so each plan
 * reads it again and the constructs that use it follow a rotation. The password is sensitive: masked
 * in plans and output, encrypted in state.
 *
 * @example
 * const reportingRole = secrets.DatabaseStaticRole.fromName(stack, 'reporting-role', 'database', 'reporting');
 * const creds = new secrets.DatabaseStaticCredentials(stack, 'reporting-creds', { role: reportingRole });
 */
export class DatabaseStaticCredentials extends SecretsEngineCredentials {
  constructor(scope: Construct, id: string, props: DatabaseStaticCredentialsProps) {
    super(scope, id, DATABASE_STATIC_CREDENTIALS.kind, props);
  }

  /** The database user of the role. */
  public get username(): string {
    return this._attrString('username');
  }

  /** Its current password (sensitive). */
  public get password(): string {
    return this._attrString('password');
  }

  /** When the service last rotated the password (ISO 8601). */
  public get lastServiceRotation(): string {
    return this._attrString('lastServiceRotation');
  }

  /** Seconds until the next scheduled rotation, when read. */
  public get ttl(): number {
    return this._attrNumber('ttl');
  }


}
