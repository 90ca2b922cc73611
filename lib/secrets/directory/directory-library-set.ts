import { Construct, IConstruct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check, durationSeconds } from '../../core/constructs/validation';
import { KindSchema, renderSpec } from '../../core/schema';
import { ExistingPathObject } from '../shared/existing-path-object';
import { SecretsProvider } from '../provider';
import { IDirectoryConfig } from './directory-config';
import { DIRECTORY_LIBRARY_SET } from './directory-library-set.schema';
import { mountOfConfig } from './directory-mount';
import { mountFromRef } from '../shared/mount-ref';
import { ISecretsMount } from '../sys/secrets-mount';

/** A library set of the directory engine: one this app manages, or one looked up with `DirectoryLibrarySet.fromName`. */
export interface IDirectoryLibrarySet extends IConstruct {
  /** Mount path of the directory engine. */
  readonly mount: string;
  /** The set name (`{mount}/library/<name>/check-out` lends one of its accounts). */
  readonly setName: string;
}

/** Props of a directory library set (`{mount}/library/<name>`). */
export interface DirectoryLibrarySetProps extends ResourceProps {
  /**
   * Mount path of the directory engine (taken from `config` when given).
   * @default 'directory'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app, of type `directory`), instead of
   * `mount`: this construct is created after it, destroyed before it, and planned as new until it
   * exists. With `config`, it must be the mount the configuration was placed in.
   * @default - the mount of `config`, else the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
  /**
   * The engine configuration the set needs; sets `mount` and orders the set after it.
   * @default - none
   */
  readonly config?: IDirectoryConfig;
  /** Set name (a path segment). A change replaces the set. */
  readonly name: string;
  /** Service accounts lent by the set (a set: order and repeats do not count): they must exist in the directory and belong to no other set. */
  readonly serviceAccountNames: string[];
  /**
   * Longest single check-out (`"0s"`: unlimited).
   * @default '24h'
   */
  readonly ttl?: string;
  /**
   * Longest check-out with renewals (`"0s"`: unlimited).
   * @default '24h'
   */
  readonly maxTtl?: string;
  /**
   * Whether anyone (not only the borrower) may check an account in.
   * @default false
   */
  readonly disableCheckInEnforcement?: boolean;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A library set of the directory engine: service accounts that callers check out and in.
 * `DirectoryLibraryCheckOut` checks one out for other constructs.
 *
 * @example
 * new secrets.DirectoryLibrarySet(stack, 'batch-accounts', {
 *   name: 'batch',
 *   serviceAccountNames: ['svc-batch-1', 'svc-batch-2'],
 *   ttl: '1h',
 * });
 */
export class DirectoryLibrarySet extends Resource implements IDirectoryLibrarySet {
  /**
   * A library set that exists outside this app, by mount and name: read at plan time (the plan fails,
   * naming this construct, when it does not exist), never changed nor deleted.
   * @param mount mount path of the directory engine (e.g. `directory`)
   * @param name the set name
   * @param provider how to reach the secrets service (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider): IDirectoryLibrarySet {
    return new ExistingDirectoryLibrarySet(scope, id, mount, name, provider);
  }

  /** Mount path of the engine. */
  public readonly mount: string;
  /** Set name. */
  public readonly name: string;
  /** Set name. */
  public readonly setName: string;

  constructor(scope: Construct, id: string, props: DirectoryLibrarySetProps) {
    super(scope, id, DIRECTORY_LIBRARY_SET.kind, DIRECTORY_LIBRARY_SET.api, mountFromRef(props), props.provider);
    this.mount = mountOfConfig(this, props);
    this.name = props.name;
    this.setName = props.name;
    check(props.serviceAccountNames.length > 0, this, 'serviceAccountNames', 'must name at least one service account');
    const ttl = durationSeconds(props.ttl ?? '24h');
    const max = durationSeconds(props.maxTtl ?? '24h');
    check(max === 0 || (ttl !== 0 && ttl <= max), this, 'ttl', `"${props.ttl ?? '24h'}" must not be longer than maxTtl "${props.maxTtl ?? '24h'}"`);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return DIRECTORY_LIBRARY_SET;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return renderSpec(DIRECTORY_LIBRARY_SET.fields, { ...this._props, mount: this.mount });
  }
}

/** A library set looked up by mount and name (`DirectoryLibrarySet.fromName`). */
class ExistingDirectoryLibrarySet extends ExistingPathObject implements IDirectoryLibrarySet {
  constructor(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider) {
    super(scope, id, DIRECTORY_LIBRARY_SET, 'library', mount, name, provider);
  }

  public get setName(): string {
    return this._name;
  }
}
