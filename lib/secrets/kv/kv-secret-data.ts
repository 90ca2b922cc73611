import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { checkInt } from '../../core/constructs/validation';
import { checkKvPath, checkMount } from './kv-validation';
import { SecretsProvider } from '../provider';

/** Props of the KvSecretData data source. */
export interface KvSecretDataProps {
  /**
   * Mount path of the key-value engine.
   * @default 'secret'
   */
  readonly mount?: string;
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
 * Reads a KV secret's data at plan time. Outputs: `data` (the map; sensitive: kept encrypted in
 * state and masked in output), `version`, `createdTime`, `customMetadata`. A missing, deleted
 * or destroyed version fails the plan.
 *
 * @example
 * const db = new secrets.KvSecretData(stack, 'db-settings', { path: 'acme/db' });
 * // db.data and db.version are read at plan time and can feed other constructs.
 */
export class KvSecretData extends DataSource {
  private readonly props: KvSecretDataProps;

  constructor(scope: Construct, id: string, props: KvSecretDataProps) {
    super(scope, id, 'secrets.KvSecretData', 'secrets', props.provider, props);
    this.props = props;
    checkMount(this, props.mount ?? 'secret');
    checkKvPath(this, props.path);
    checkInt(this, 'version', props.version, 0);
  }

  /** The secret's data (a sensitive map). */
  public get data(): any {
    return this._attrRef('data');
  }

  /** The version read. */
  public get version(): any {
    return this._attrRef('version');
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return { mount: this.props.mount ?? 'secret', path: this.props.path, version: this.props.version ?? 0 };
  }
}
