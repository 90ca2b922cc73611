import { Construct } from 'constructs';
import { LeasedSecretsEngineCredentials } from '../shared/engine-role';
import { SecretsProvider } from '../provider';
import { DATABASE_CREDENTIALS } from './database-credentials.schema';
import { IDatabaseRole } from './database-role';

/** Props of the DatabaseCredentials data source. */
export interface DatabaseCredentialsProps {
  /** The dynamic role whose credentials are issued (`DatabaseRole`, or one looked up with `DatabaseRole.fromName`). */
  readonly role: IDatabaseRole;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * Credentials of a dynamic database role (`GET {mount}/creds/<role>`): the service creates a database
 * user for them, leased for the role's ttl, and drops it when the lease ends. They are issued by
 * `converge apply` (a plan never issues any) and kept in state, encrypted, while more than a third of
 * their lease is left: plans and applies in that time reuse them; after it the next apply issues new
 * ones and the constructs that use them are updated. The password is sensitive: masked in plans and
 * output, encrypted in state; its getter is a token other constructs' props take (a `KvSecret` value).
 *
 * @example
 * const appRole = secrets.DatabaseRole.fromName(stack, 'app-role', 'database', 'app');
 * const creds = new secrets.DatabaseCredentials(stack, 'app-creds', { role: appRole });
 * new secrets.KvSecret(stack, 'app-db', {
 *   path: 'app/db',
 *   data: { username: creds.username, password: SecretValue.resourceAttribute(creds.password) },
 * });
 */
export class DatabaseCredentials extends LeasedSecretsEngineCredentials {
  constructor(scope: Construct, id: string, props: DatabaseCredentialsProps) {
    super(scope, id, DATABASE_CREDENTIALS.kind, props);
  }

  /** The generated database user name. */
  public get username(): string {
    return this._attrString('username');
  }

  /** The generated password (sensitive). */
  public get password(): string {
    return this._attrString('password');
  }





}
