import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { ValidationError } from '../../core/constructs/validation';
import { ISecretsEngineRole } from '../shared/engine-role';
import { checkType } from '../shared/mount-ref';
import { SecretsProvider } from '../provider';
import { IAuthBackend } from '../sys/auth-backend';
import { APPROLE_ROLE } from './approle-role.schema';

/** Props of a role of the AppRole auth method. */
export interface AppRoleRoleProps extends ResourceProps {
  /**
   * The AppRole method the role belongs to (an `AuthBackend` of this app): the role is created after
   * it. Give either this or `mount`, not both; a method of another type than `approle` is refused.
   * @default - the method at `mount`
   */
  readonly authBackend?: IAuthBackend;
  /**
   * Where the AppRole method is mounted below `auth/`, when it is not given as `authBackend`. A change replaces the role.
   * @default 'approle'
   */
  readonly mount?: string;
  /** The role's name: lower case (the service lower-cases names). A change replaces the role (and its role id). */
  readonly name: string;
  /**
   * Policies of the tokens a login with this role gets (lower case).
   * @default []
   */
  readonly tokenPolicies?: string[];
  /**
   * TTL of those tokens (`"1h"`); `"0s"` uses the method's default.
   * @default '0s'
   */
  readonly tokenTtl?: string;
  /**
   * Longest TTL of those tokens, renewals included; `"0s"` uses the method's maximum.
   * @default '0s'
   */
  readonly tokenMaxTtl?: string;
  /**
   * Uses of each token (0: unlimited).
   * @default 0
   */
  readonly tokenNumUses?: number;
  /**
   * Type of the tokens: `default`, `service` or `batch`.
   * @default 'default'
   */
  readonly tokenType?: string;
  /**
   * Whether a login must present a secret id (`AppRoleSecretId`) besides the role id.
   * @default true
   */
  readonly bindSecretId?: boolean;
  /**
   * How long each secret id stays good (`"0s"`: until destroyed).
   * @default '0s'
   */
  readonly secretIdTtl?: string;
  /**
   * Logins each secret id allows (0: unlimited).
   * @default 0
   */
  readonly secretIdNumUses?: number;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A role of the AppRole auth method (`auth/<mount>/role/<name>`): what the tokens of a login with it
 * hold (policies, TTLs, uses) and how its secret ids behave. Its `roleId` (an output, not a secret)
 * and a secret id (`AppRoleSecretId`) log a machine in.
 *
 * @example
 * const approle = new secrets.AuthBackend(stack, 'approle', { path: 'approle', type: 'approle' });
 * const role = new secrets.AppRoleRole(stack, 'ci', { authBackend: approle, name: 'ci', tokenPolicies: ['ci-app'], secretIdTtl: '24h' });
 * new secrets.AppRoleSecretId(stack, 'ci-secret', { role });
 */
export class AppRoleRole extends Resource implements ISecretsEngineRole {
  /** Where the AppRole method is mounted below `auth/`. */
  public readonly mount: string;
  /** The role's name. */
  public readonly roleName: string;

  constructor(scope: Construct, id: string, props: AppRoleRoleProps) {
    super(scope, id, APPROLE_ROLE.kind, APPROLE_ROLE.api, props, props.provider);
    this.mount = props.authBackend?.mountPath ?? props.mount ?? 'approle';
    this.roleName = props.name;
    if (props.authBackend) {
      if (props.mount !== undefined) throw new ValidationError(this, 'authBackend', 'cannot be given with mount: give either mount (a path below `auth/`) or authBackend (an AuthBackend)');
      checkType(this, 'authBackend', props.authBackend, 'method', ['approle']);
      this.node.addDependency(props.authBackend);
    }
  }

  /** The role id (not a secret: a login needs a secret id with it), resolved when converge applies. */
  public get roleId(): string {
    return this._attrString('roleId');
  }

  /** The mount from the method given, as the schema's field. @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    const { authBackend, ...rest } = props;
    return authBackend ? { ...rest, mount: (authBackend as IAuthBackend).mountPath } : rest;
  }

  /** @internal */
  protected _schema(): KindSchema {
    return APPROLE_ROLE;
  }
}
