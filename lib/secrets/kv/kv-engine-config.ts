import { Construct } from 'constructs';
import { KV_MOUNT, mountFromRef, mountPathOf, useMountRef } from '../shared/mount-ref';
import { ISecretsMount } from '../sys/secrets-mount';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { SecretsProvider } from '../provider';
import { KV_ENGINE_CONFIG } from './kv-engine-config.schema';
import { checkWholeSeconds } from './kv-validation';

/** Props of a key-value engine's configuration. */
export interface KvEngineConfigProps extends ResourceProps {
  /**
   * Mount path of the key-value engine. A change moves the construct to another engine's configuration.
   * @default 'secret'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app), instead of `mount`: this
   * construct is created after it, and planned as new until it exists.
   * @default - the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
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

  constructor(scope: Construct, id: string, props: KvEngineConfigProps = {}) {
    super(scope, id, KV_ENGINE_CONFIG.kind, KV_ENGINE_CONFIG.api, mountFromRef(props), props.provider);
    useMountRef(this, props, KV_MOUNT);
    this.mount = mountPathOf(props, KV_MOUNT);
    checkWholeSeconds(this, 'deleteVersionAfter', props.deleteVersionAfter);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return KV_ENGINE_CONFIG;
  }
}
