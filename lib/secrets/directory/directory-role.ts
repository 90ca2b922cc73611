import { Construct, IConstruct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema, renderSpec } from '../../core/schema';
import { ExistingPathObject } from '../shared/existing-path-object';
import { SecretsProvider } from '../provider';
import { IDirectoryConfig } from './directory-config';
import { mountOfConfig } from './directory-mount';
import { mountFromRef } from '../shared/mount-ref';
import { ISecretsMount } from '../sys/secrets-mount';
import { DIRECTORY_ROLE } from './directory-role.schema';

/** A role of the directory engine: one this app manages, or one looked up with `DirectoryRole.fromName`. */
export interface IDirectoryRole extends IConstruct {
  /** Mount path of the directory engine. */
  readonly mount: string;
  /** The role name (`{mount}/creds/<name>` answers its account's password). */
  readonly roleName: string;
}

/** Props of a directory engine role (`{mount}/roles/<name>`). */
export interface DirectoryRoleProps extends ResourceProps {
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
   * The engine configuration the role needs; sets `mount` and orders the role after it.
   * @default - none
   */
  readonly config?: IDirectoryConfig;
  /** Role name (a path segment). A change replaces the role. */
  readonly name: string;
  /** The service account whose password the role manages; must already exist in the directory. */
  readonly serviceAccountName: string;
  /**
   * Password ttl: after it the password is rotated on the next credentials request.
   * @default - the configuration's ttl (then not compared, as it follows the configuration)
   */
  readonly ttl?: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A role of the directory engine: the service manages (and rotates) one service account's password.
 * `DirectoryCredentials` reads that password for other constructs.
 *
 * @example
 * new secrets.DirectoryRole(stack, 'backup', { name: 'backup', serviceAccountName: 'svc-backup', ttl: '24h' });
 */
export class DirectoryRole extends Resource implements IDirectoryRole {
  /**
   * A role that exists outside this app, by mount and name: read at plan time (the plan fails, naming
   * this construct, when it does not exist), never changed nor deleted.
   * @param mount mount path of the directory engine (e.g. `directory`)
   * @param name the role name
   * @param provider how to reach the secrets service (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider): IDirectoryRole {
    return new ExistingDirectoryRole(scope, id, mount, name, provider);
  }

  /** Mount path of the engine. */
  public readonly mount: string;
  /** Role name. */
  public readonly name: string;
  /** Role name. */
  public readonly roleName: string;

  constructor(scope: Construct, id: string, props: DirectoryRoleProps) {
    super(scope, id, DIRECTORY_ROLE.kind, DIRECTORY_ROLE.api, mountFromRef(props), props.provider);
    this.mount = mountOfConfig(this, props);
    this.name = props.name;
    this.roleName = props.name;
  }

  /** When the account's password was last set (in the directory), known once applied. */
  public get passwordLastSet(): string {
    return this._attrString('passwordLastSet');
  }

  /** When the service last rotated the account's password, known once applied. */
  public get lastServiceRotation(): string {
    return this._attrString('lastServiceRotation');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return DIRECTORY_ROLE;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return renderSpec(DIRECTORY_ROLE.fields, { ...this._props, mount: this.mount });
  }
}

/** A role looked up by mount and name (`DirectoryRole.fromName`). */
class ExistingDirectoryRole extends ExistingPathObject implements IDirectoryRole {
  constructor(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider) {
    super(scope, id, DIRECTORY_ROLE, 'roles', mount, name, provider);
  }

  public get roleName(): string {
    return this._name;
  }
}
