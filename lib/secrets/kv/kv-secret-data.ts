import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { KV_MOUNT, mountFromRef, useMountRef } from '../shared/mount-ref';
import { SecretsProvider } from '../provider';
import { ISecretsMount } from '../sys/secrets-mount';
import { KV_SECRET_DATA } from './kv-secret-data.schema';

/** Props of the KvSecretData data source. */
export interface KvSecretDataProps {
  /**
   * Mount path of the key-value engine.
   * @default 'secret'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app, of type `kv`), instead of `mount`:
   * this construct is read after it (during the apply that creates it).
   * @default - the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
  /** Key path below the mount. */
  readonly path: string;
  /**
   * Version to read; 0 reads the current one.
   * @default 0
   */
  readonly version?: number;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * Reads a KV secret's data at plan time. Its data is sensitive: kept encrypted in state, masked in
 * output; `field(key)` references one value of it, which stays a secret wherever it is passed (as
 * `SecretValue.resourceAttribute(data.field('password'))` where a `SecretValue` is expected).
 * A missing, deleted or destroyed version fails the plan.
 *
 * @example
 * const db = new secrets.KvSecretData(stack, 'db-settings', { path: 'acme/db' });
 * new secrets.KvSecret(stack, 'copy', { path: 'other/db', data: { password: SecretValue.resourceAttribute(db.field('password')) } });
 */
export class KvSecretData extends DataSource {
  constructor(scope: Construct, id: string, props: KvSecretDataProps) {
    super(scope, id, KV_SECRET_DATA.kind, KV_SECRET_DATA.api, props.provider, mountFromRef(props));
    useMountRef(this, props, KV_MOUNT);
  }

  /**
   * One value of the secret's data (a sensitive string reference, resolved when converge plans):
   * the plan fails, naming the key, when the data has no such key.
   * @param key a key of the secret's data
   */
  public field(key: string): string {
    check(typeof key === 'string' && key.length > 0, this, 'field()', 'takes a key of the data (not empty)');
    return this._attrString(`data.${key}`);
  }

  /** The version read. */
  public get version(): number {
    return this._attrNumber('version');
  }

  /** When the version read was written (RFC 3339). */
  public get createdTime(): string {
    return this._attrString('createdTime');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return KV_SECRET_DATA;
  }
}
