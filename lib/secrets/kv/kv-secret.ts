import { Construct } from 'constructs';
import { KV_MOUNT, mountFromRef, mountPathOf, useMountRef } from '../shared/mount-ref';
import { ISecretsMount } from '../sys/secrets-mount';
import { ExistingObject } from '../../core/constructs/existing-object';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { validateProps } from '../../core/schema/validate-props';
import { SecretsProvider } from '../provider';
import { KV_SECRET } from './kv-secret.schema';
import { checkCustomMetadata, checkKvData, checkWholeSeconds } from './kv-validation';

/** A secret of a key-value version 2 engine: one this app manages, or one looked up with `KvSecret.fromPath`. */
export interface IKvSecret {
  /** Mount path of the engine. */
  readonly mount: string;
  /** Key path below the mount. */
  readonly path: string;
  /** The key's current version: known once applied (a managed secret) or read (a looked-up one). */
  readonly version: number;
}

/** Props of a secret in a key-value version 2 engine. */
export interface KvSecretProps extends ResourceProps {
  /**
   * Mount path of the key-value engine. A change replaces the secret.
   * @default 'secret'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app), instead of `mount`: this
   * construct is created after it, and planned as new until it exists.
   * @default - the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
  /** Key path below the mount, e.g. `app/db` (no leading `/`, no `..` segments). A change replaces the secret. */
  readonly path: string;
  /**
   * The secret's data: each value a string, number, boolean or `SecretValue` (synthesized as where
   * to find it, never as its value), or an attribute of another converge construct (e.g. an
   * organization's `externalId`). A sensitive attribute of another construct (a generated TOTP
   * URL, a credential a data source read) is passed as `SecretValue.resourceAttribute(attr)`: it
   * stays a secret end to end (masked in plans, an HMAC in state). A change writes a new version.
   * (Typed as a map of any value: a union type would not translate into the examples of every jsii
   * language; each value is checked when the construct is made.)
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
export class KvSecret extends Resource implements IKvSecret {
  /**
   * A secret that exists outside this app, by mount and path: read at plan time (the plan fails,
   * naming this construct, when it does not exist or its latest version is deleted), never changed
   * nor deleted. Its data is read as a secret (kept encrypted in state, never shown).
   * @param mount mount path of the engine, e.g. `secret`
   * @param path key path below the mount, e.g. `app/db`
   * @param provider the secrets provider to read it with (default: the stack's)
   */
  public static fromPath(scope: Construct, id: string, mount: string, path: string, provider?: SecretsProvider): IKvSecret {
    return new ExistingKvSecret(scope, id, mount, path, provider);
  }

  /** Mount path of the engine. */
  public readonly mount: string;
  /** Key path below the mount. */
  public readonly path: string;

  constructor(scope: Construct, id: string, props: KvSecretProps) {
    super(scope, id, KV_SECRET.kind, KV_SECRET.api, mountFromRef(props), props.provider);
    useMountRef(this, props, KV_MOUNT);
    this.mount = mountPathOf(props, KV_MOUNT);
    this.path = props.path;
    checkKvData(this, props.data);
    checkCustomMetadata(this, props.customMetadata ?? {});
    checkWholeSeconds(this, 'deleteVersionAfter', props.deleteVersionAfter);
  }

  /** The key's current version after converge wrote it, resolved when converge applies. */
  public get version(): number {
    return this._attrNumber('version');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return KV_SECRET;
  }
}

/** A KV secret looked up by mount and path (`KvSecret.fromPath`). */
class ExistingKvSecret extends ExistingObject implements IKvSecret {
  public readonly mount: string;
  public readonly path: string;

  constructor(scope: Construct, id: string, mount: string, path: string, provider?: SecretsProvider) {
    super(scope, id, KV_SECRET.kind, KV_SECRET.api, `${mount}/${path}`, 'mount and path', provider);
    this.mount = mount;
    this.path = path;
    validateProps(this, { mount: KV_SECRET.fields.mount, path: KV_SECRET.fields.path }, { mount, path });
  }

  /** The mount, which may hold slashes: the id `<mount>/<path>` alone does not tell where it ends. @internal */
  protected _known(): Record<string, unknown> {
    return { mount: this.mount, path: this.path };
  }

  public get version(): number {
    return this._attrNumber('version');
  }
}
