import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { checkMount, checkVersionSettings } from './kv-validation';
import { SecretsProvider } from '../provider';
import { normalDurationString } from '../../core/duration';

/** Props of a key-value engine's configuration. */
export interface KvEngineConfigProps extends ResourceProps {
  /**
   * Mount path of the key-value engine.
   * @default 'secret'
   */
  readonly mount?: string;
  /**
   * Versions kept per key (a key's own setting overrides it); 0 means 10.
   * @default 0
   */
  readonly maxVersions?: number;
  /**
   * Whether every write must carry a check-and-set version.
   * @default false
   */
  readonly casRequired?: boolean;
  /**
   * How long new versions live before they read as deleted (`"0s"`: forever); caps each key's own setting.
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
 * The configuration of a key-value version 2 engine (`{mount}/config`). Removing it resets the
 * engine to its defaults.
 *
 * @example
 * new secrets.KvEngineConfig(stack, 'kv', { mount: 'secret', maxVersions: 10, casRequired: true, deleteVersionAfter: '720h' });
 */
export class KvEngineConfig extends Resource {
  /** Mount path of the engine. */
  public readonly mount: string;
  private readonly props: KvEngineConfigProps;

  constructor(scope: Construct, id: string, props: KvEngineConfigProps = {}) {
    super(scope, id, 'secrets.KvEngineConfig', 'secrets', props, props.provider);
    this.mount = props.mount ?? 'secret';
    this.props = props;
    checkMount(this, this.mount);
    checkVersionSettings(this, props.maxVersions ?? 0, props.deleteVersionAfter ?? '0s', props.casRequired);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return {
      mount: this.mount,
      maxVersions: this.props.maxVersions ?? 0,
      casRequired: this.props.casRequired ?? false,
      deleteVersionAfter: normalDurationString(this.props.deleteVersionAfter ?? '0s'),
    };
  }
}
