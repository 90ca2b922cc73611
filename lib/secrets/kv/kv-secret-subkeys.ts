import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { checkInt } from '../../core/constructs/validation';
import { checkKvPath, checkMount } from './kv-validation';
import { SecretsProvider } from '../provider';

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
  private readonly props: KvSecretSubkeysProps;

  constructor(scope: Construct, id: string, props: KvSecretSubkeysProps) {
    super(scope, id, 'secrets.KvSecretSubkeys', 'secrets', props.provider, props);
    this.props = props;
    checkMount(this, props.mount ?? 'secret');
    checkKvPath(this, props.path);
    checkInt(this, 'version', props.version, 0);
    checkInt(this, 'depth', props.depth, 0);
  }

  /** A reference to one output (`subkeys`, `keys`, `version`), resolved when converge applies. */
  public attribute(name: string): any {
    return this._attrRef(name);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return { mount: p.mount ?? 'secret', path: p.path, version: p.version ?? 0, depth: p.depth ?? 0 };
  }
}
