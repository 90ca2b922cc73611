import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { SecretsProvider } from '../provider';
import { KV_SECRET_SUBKEYS } from './kv-secret-subkeys.schema';

/** Props of the KvSecretSubkeys data source. */
export interface KvSecretSubkeysProps {
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
   * How deep to descend; 0 for no limit.
   * @default 0
   */
  readonly depth?: number;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * Reads the structure of a KV secret without its values at plan time. Outputs: `subkeys` (the
 * map with leaf values null), `keys` (the top-level names), `version`.
 *
 * @example
 * new secrets.KvSecretSubkeys(stack, 'db-keys', { path: 'acme/db', depth: 1 });
 */
export class KvSecretSubkeys extends DataSource {
  constructor(scope: Construct, id: string, props: KvSecretSubkeysProps) {
    super(scope, id, KV_SECRET_SUBKEYS.kind, KV_SECRET_SUBKEYS.api, props.provider, props);
  }

  /** The version read. */
  public get version(): number {
    return this._attrNumber('version');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return KV_SECRET_SUBKEYS;
  }
}
