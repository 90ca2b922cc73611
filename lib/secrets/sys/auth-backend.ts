import { Construct, IConstruct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { SecretsProvider } from '../provider';
import { AUTH_BACKEND } from './auth-backend.schema';

/** An auth method's mount, which its roles are placed in (`AppRoleRole.authBackend`). */
export interface IAuthBackend extends IConstruct {
  /** Where the method is mounted below `auth/`, e.g. `approle`. */
  readonly mountPath: string;
  /** The method type (`approle`, …): a role placed in the method refuses one of another type. */
  readonly type: string;
}

/** Props of an auth method. */
export interface AuthBackendProps extends ResourceProps {
  /** Where to enable the method, below `auth/` (`approle` serves `auth/approle/...`). A change replaces it. */
  readonly path: string;
  /** The method type, e.g. `approle`. A change replaces it (its roles are gone). */
  readonly type: string;
  /**
   * Human-friendly description; tuned in place.
   * @default ''
   */
  readonly description?: string;
  /**
   * Default TTL of the tokens it issues (`"1h"`); `"0s"` uses the system's default. Tuned in place.
   * @default '0s'
   */
  readonly defaultLeaseTtl?: string;
  /**
   * Longest TTL of the tokens it issues; `"0s"` uses the system's maximum. Tuned in place.
   * @default '0s'
   */
  readonly maxLeaseTtl?: string;
  /**
   * Method options; tuned in place (the service keeps an option a tune leaves out: removing one is refused at apply).
   * @default {}
   */
  readonly options?: { [key: string]: string };
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * An auth method enabled at `auth/<path>` (`sys/auth/<path>`): its type, description, token TTLs and
 * options (tuned in place; a new type or path replaces it). The service asks `sudo` for every request
 * to `sys/auth/<path>`: `converge policy` prints it. Destroying it disables the method, and every role
 * and token it issued is gone.
 *
 * @example
 * const approle = new secrets.AuthBackend(stack, 'approle', { path: 'approle', type: 'approle' });
 * new secrets.AppRoleRole(stack, 'ci', { authBackend: approle, name: 'ci', tokenPolicies: ['ci-app'] });
 */
export class AuthBackend extends Resource implements IAuthBackend {
  /** The method type. */
  public readonly type: string;

  constructor(scope: Construct, id: string, props: AuthBackendProps) {
    super(scope, id, AUTH_BACKEND.kind, AUTH_BACKEND.api, props, props.provider);
    this.type = props.type;
  }

  /** The method's accessor (`auth_approle_1a2b3c4d`), resolved when converge applies. */
  public get accessor(): string {
    return this._attrString('accessor');
  }

  /**
   * Where it is mounted, as a reference: a construct given this mount waits for it (planned as new
   * until the mount exists, created after it).
   */
  public get mountPath(): string {
    return this._attrString('mountedPath');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return AUTH_BACKEND;
  }
}
