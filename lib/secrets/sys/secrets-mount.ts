import { Construct, IConstruct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { SecretsProvider } from '../provider';
import { SECRETS_MOUNT } from './secrets-mount.schema';

/**
 * A secrets engine mount other constructs may be placed in: the `secretsMount` of an engine's
 * constructs takes one, and they then depend on it (created after it, deleted before it).
 */
export interface ISecretsMount extends IConstruct {
  /** Where the engine is mounted, e.g. `secret` or `team/kv`. */
  readonly mountPath: string;
  /** The engine type (`kv`, `database`, …): a construct placed in the mount refuses one of another engine. */
  readonly type: string;
}

/** Props of a secrets engine mount. */
export interface SecretsMountProps extends ResourceProps {
  /** Where to mount the engine, e.g. `kv-team` or `team/kv` (no leading or trailing `/`). A change replaces the mount (and drops its data). */
  readonly path: string;
  /**
   * The engine type, e.g. `kv`, `totp`, `database`. A change replaces the mount: a new engine,
   * the old one's data gone.
   */
  readonly type: string;
  /**
   * Human-friendly description of the mount; tuned in place.
   * @default ''
   */
  readonly description?: string;
  /**
   * Default lease TTL of what the engine issues (`"1h"`); `"0s"` uses the system's default. Tuned in place.
   * @default '0s'
   */
  readonly defaultLeaseTtl?: string;
  /**
   * Longest lease TTL of what the engine issues; `"0s"` uses the system's maximum. Tuned in place.
   * @default '0s'
   */
  readonly maxLeaseTtl?: string;
  /**
   * Engine options, e.g. `{ version: '2' }` for a key-value version 2 engine. Tuned in place (a KV
   * engine upgrades from version 1 to 2; the service refuses a downgrade). The service keeps an
   * option a tune leaves out: removing one is refused at apply.
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
 * A secrets engine mounted at a path (`sys/mounts/<path>`): its type, description, lease TTLs and
 * options. Description, TTLs and options are tuned in place; a new type or path replaces the mount.
 * Destroying it unmounts the engine and drops every secret in it.
 *
 * @example
 * const kv = new secrets.SecretsMount(stack, 'team-kv', { path: 'team-kv', type: 'kv', options: { version: '2' } });
 * new secrets.KvSecret(stack, 'db', { secretsMount: kv, path: 'app/db', data: { user: 'app' } });
 */
export class SecretsMount extends Resource implements ISecretsMount {
  /** The engine type. */
  public readonly type: string;

  constructor(scope: Construct, id: string, props: SecretsMountProps) {
    super(scope, id, SECRETS_MOUNT.kind, SECRETS_MOUNT.api, props, props.provider);
    this.type = props.type;
  }

  /** The mount's accessor (`kv_1a2b3c4d`), assigned by the service, resolved when converge applies. */
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
    return SECRETS_MOUNT;
  }
}
