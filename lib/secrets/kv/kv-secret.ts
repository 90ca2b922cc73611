import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { checkCustomMetadata, checkKvData, checkKvPath, checkMount, checkVersionSettings } from './kv-validation';
import { SecretsProvider } from '../provider';
import { normalDurationString } from '../../core/duration';

/** Props of a secret in a key-value version 2 engine. */
export interface KvSecretProps extends ResourceProps {
  /**
   * Mount path of the key-value engine.
   * @default 'secret'
   */
  readonly mount?: string;
  /** Key path below the mount, e.g. `app/db` (no leading `/`, no `..` segments). A change replaces the secret. */
  readonly path: string;
  /**
   * The secret's data: each value a string, number, boolean, `SecretValue` (synthesized as where
   * to find it, never as its value) or an attribute of another converge construct (e.g. an
   * organization's `externalId`). A change writes a new version.
   */
  readonly data: { [key: string]: any };
  /**
   * Custom metadata of the key (at most 64 keys; keys 1 to 128, values 1 to 512 characters).
   * @default {}
   */
  readonly customMetadata?: { [key: string]: string };
  /**
   * Versions kept for this key; 0 uses the engine's setting (whose 0 means 10).
   * @default 0
   */
  readonly maxVersions?: number;
  /**
   * Whether every write of this key must carry a check-and-set version.
   * @default false
   */
  readonly casRequired?: boolean;
  /**
   * How long each new version lives before it reads as deleted (`"0s"`: forever); capped by the engine's setting.
   * @default '0s'
   */
  readonly deleteVersionAfter?: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A secret in a key-value version 2 engine: its data (written as a new version, with
 * check-and-set so that a concurrent writer is never overwritten silently) and its key metadata.
 * Removed (metadata and every version) only under `RemovalPolicy.DESTROY`, the default.
 *
 * @example
 * new secrets.KvSecret(stack, 'db', {
 *   path: 'app/db',
 *   data: { user: 'app', password: SecretValue.fromEnv('DB_PASSWORD') },
 * });
 */
export class KvSecret extends Resource {
  /** Mount path of the engine. */
  public readonly mount: string;
  /** Key path below the mount. */
  public readonly path: string;
  private readonly props: KvSecretProps;

  constructor(scope: Construct, id: string, props: KvSecretProps) {
    super(scope, id, 'secrets.KvSecret', 'secrets', props, props.provider);
    this.mount = props.mount ?? 'secret';
    this.path = props.path;
    this.props = props;
    checkMount(this, this.mount);
    checkKvPath(this, props.path);
    checkKvData(this, props.data);
    checkCustomMetadata(this, props.customMetadata ?? {});
    checkVersionSettings(this, props.maxVersions ?? 0, props.deleteVersionAfter ?? '0s', props.casRequired);
  }

  /** The key's current version after converge wrote it, resolved when converge applies. */
  public get version(): any {
    return this._attrRef('version');
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      mount: this.mount,
      path: this.path,
      data: { ...p.data },
      customMetadata: { ...(p.customMetadata ?? {}) },
      maxVersions: p.maxVersions ?? 0,
      casRequired: p.casRequired ?? false,
      deleteVersionAfter: normalDurationString(p.deleteVersionAfter ?? '0s'),
    };
  }
}
