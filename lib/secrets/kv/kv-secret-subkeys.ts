import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { KvSecretDataProps } from './kv-secret-data';
import { KV_MOUNT, mountFromRef, useMountRef } from '../shared/mount-ref';
import { KV_SECRET_SUBKEYS } from './kv-secret-subkeys.schema';

/** Props of the KvSecretSubkeys data source. */
export interface KvSecretSubkeysProps extends KvSecretDataProps {
  /**
   * How deep to descend; 0 for no limit.
   * @default 0
   */
  readonly depth?: number;
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
    super(scope, id, KV_SECRET_SUBKEYS.kind, KV_SECRET_SUBKEYS.api, props.provider, mountFromRef(props));
    useMountRef(this, props, KV_MOUNT);
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
