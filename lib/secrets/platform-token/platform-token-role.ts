import { Construct } from 'constructs';
import { ResourceProps } from '../../core/constructs/resource';
import { ISecretsEngineRole, SecretsEngineRole } from '../shared/engine-role';
import { check, durationSeconds } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { ExistingEngineRole } from '../shared/existing-role';
import { PLATFORM_TOKEN_MOUNT, mountFromRef, mountPathOf, useMountRef } from '../shared/mount-ref';
import { SecretsProvider } from '../provider';
import { ISecretsMount } from '../sys/secrets-mount';
import { PLATFORM_TOKEN_ROLE } from './platform-token-role.schema';

/** Props of a platform-token role. Exactly one kind: `organization` (with `teamId` for a team token) or `userId`. */
export interface PlatformTokenRoleProps extends ResourceProps {
  /**
   * Mount path of the platform-token engine.
   * @default 'platform'
   */
  readonly mount?: string;
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app, of type `platform`), instead of `mount`:
   * this construct is created after it, destroyed before it, and planned as new until it exists.
   * @default - the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
  /** Name of the role. */
  readonly name: string;
  /**
   * Organization whose token the role issues (conflicts with `userId`).
   * @default ''
   */
  readonly organization?: string;
  /**
   * Team whose token the role issues (conflicts with `userId`).
   * @default ''
   */
  readonly teamId?: string;
  /**
   * User whose tokens the role issues, a new one per request (conflicts with `organization` and `teamId`).
   * @default ''
   */
  readonly userId?: string;
  /**
   * Lease of a user token (`"1h"`, or seconds); `"0s"` uses the service default. User roles only.
   * @default '0s'
   */
  readonly ttl?: string;
  /**
   * Longest lease of a user token; `"0s"` uses the service default. User roles only.
   * @default '0s'
   */
  readonly maxTtl?: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/** A role of a platform-token engine: one this app manages, or one looked up with `PlatformTokenRole.fromName`. */
export interface IPlatformTokenRole extends ISecretsEngineRole {}

/**
 * A role of the platform-token engine (`{mount}/role/<name>`): an organization, team or user
 * token. Organization and team roles hand out one stored token until rotated; user roles a new
 * leased token per request (`PlatformTokenCredentials` reads them).
 *
 * @example
 * new secrets.PlatformTokenRole(stack, 'ci-token', { name: 'ci', organization: 'acme' });
 * new secrets.PlatformTokenRole(stack, 'ann-token', { name: 'ann', userId: 'user-AbCdEf123456', ttl: '1h' });
 */
export class PlatformTokenRole extends SecretsEngineRole implements IPlatformTokenRole {
  /**
   * A role that exists outside this app: read at plan time (the plan fails, naming this construct,
   * when it does not exist), never changed nor deleted.
   * @param mount mount path of the platform-token engine
   * @param name name of the role
   * @param provider how to reach the secrets service (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider): IPlatformTokenRole {
    return new ExistingEngineRole(scope, id, PLATFORM_TOKEN_ROLE, 'role', mount, name, provider);
  }


  constructor(scope: Construct, id: string, props: PlatformTokenRoleProps) {
    super(scope, id, PLATFORM_TOKEN_ROLE.kind, mountFromRef(props), mountPathOf(props, PLATFORM_TOKEN_MOUNT), props.name, ['ttl', 'maxTtl'], props.provider);
    useMountRef(this, props, PLATFORM_TOKEN_MOUNT);
    check(!(props.userId && (props.organization || props.teamId)), this, 'userId', 'conflicts with organization and teamId');
    check(!!(props.userId || props.organization || props.teamId), this, 'organization', 'teamId or userId is required');
    const ttl = durationSeconds(props.ttl ?? 0);
    const maxTtl = durationSeconds(props.maxTtl ?? 0);
    if (!props.userId) check(ttl === 0 && maxTtl === 0, this, 'ttl', 'and maxTtl apply only to user roles (userId)');
    check(ttl === 0 || maxTtl === 0 || ttl <= maxTtl, this, 'ttl', `must not exceed maxTtl (${props.ttl} > ${props.maxTtl})`);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return PLATFORM_TOKEN_ROLE;
  }
}
