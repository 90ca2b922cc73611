import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { DatabaseConnection } from './database-connection';
import { DatabaseCredentialType } from './database-role';
import { roleTarget } from './database-role-target';
import { SecretsProvider } from '../provider';
import { normalDurationString } from '../../core/duration';
import { checkSeconds, checkSegmentName, checkStringList } from '../prop-checks';

/** The shortest rotation period the service accepts. */
const MIN_ROTATION_PERIOD = 5;

/** Props of a static database role (`{mount}/static-roles/<name>`). */
export interface DatabaseStaticRoleProps extends ResourceProps {
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
  /** The existing database user whose password the service rotates. A change replaces the role. */
  readonly username: string;
  /** How often the password is rotated (`"24h"`, `"3600"`), at least 5 seconds. */
  readonly rotationPeriod: string;
  /**
   * Statements that set the new password (`{{name}}`, `{{password}}`).
   * @default [] (the plugin's default `ALTER ROLE ... WITH PASSWORD`)
   */
  readonly rotationStatements?: string[];
  /**
   * Kind of credential.
   * @default DatabaseCredentialType.PASSWORD
   */
  readonly credentialType?: DatabaseCredentialType;
  /**
   * Credential settings, e.g. `{ password_policy: 'strict' }`.
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
 * A static role of the database engine: an existing database user whose password the service
 * rotates at creation, every `rotationPeriod` and on demand. Deleting the role leaves the user.
 *
 * @example
 * new secrets.DatabaseStaticRole(stack, 'reporting', {
 *   dbName: 'app-db',
 *   name: 'reporting',
 *   username: 'reporting',
 *   rotationPeriod: '24h',
 * });
 */
export class DatabaseStaticRole extends Resource {
  public readonly mount: string;
  public readonly name: string;
  public readonly dbName: string;
  private readonly props: DatabaseStaticRoleProps;

  constructor(scope: Construct, id: string, props: DatabaseStaticRoleProps) {
    super(scope, id, 'secrets.DatabaseStaticRole', 'secrets', props, props.provider);
    this.props = props;
    this.name = props.name;
    checkSegmentName(this, 'name', props.name);
    ({ mount: this.mount, dbName: this.dbName } = roleTarget(this, props));
    check(typeof props.username === 'string' && props.username.length > 0, this, 'username', 'must not be empty');
    checkSeconds(this, 'rotationPeriod', props.rotationPeriod, MIN_ROTATION_PERIOD);
    checkStringList(this, 'rotationStatements', props.rotationStatements ?? []);
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
      username: p.username,
      rotationPeriod: normalDurationString(p.rotationPeriod),
      rotationStatements: [...(p.rotationStatements ?? [])],
      credentialType: p.credentialType ?? DatabaseCredentialType.PASSWORD,
      credentialConfig: { ...(p.credentialConfig ?? {}) },
    };
  }
}
