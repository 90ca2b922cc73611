import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check, checkDuration } from '../../core/constructs/validation';
import { checkMount } from '../kv/kv-validation';
import { checkOptString, checkSegmentName } from '../prop-checks';
import { SecretsProvider } from '../provider';
import { normalDurationString } from '../../core/duration';

/** Props of a platform-token role. Exactly one kind: `organization` (with `teamId` for a team token) or `userId`. */
export interface PlatformTokenRoleProps extends ResourceProps {
  /**
   * Mount path of the platform-token engine.
   * @default 'platform'
   */
  readonly mount?: string;
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

/**
 * A role of the platform-token engine (`{mount}/role/<name>`): an organization, team or user
 * token. Organization and team roles hand out one stored token until rotated; user roles a new
 * leased token per request.
 *
 * @example
 * new secrets.PlatformTokenRole(stack, 'ci-token', { name: 'ci', organization: 'acme' });
 * new secrets.PlatformTokenRole(stack, 'ann-token', { name: 'ann', userId: 'user-AbCdEf123456', ttl: '1h' });
 */
export class PlatformTokenRole extends Resource {
  /** Mount path of the engine. */
  public readonly mount: string;
  /** Name of the role. */
  public readonly name: string;
  private readonly props: PlatformTokenRoleProps;

  constructor(scope: Construct, id: string, props: PlatformTokenRoleProps) {
    super(scope, id, 'secrets.PlatformTokenRole', 'secrets', props, props.provider);
    this.props = props;
    this.mount = props.mount ?? 'platform';
    this.name = props.name;
    checkMount(this, this.mount);
    checkSegmentName(this, 'name', props.name);
    for (const f of ['organization', 'teamId', 'userId', 'ttl', 'maxTtl'] as const) checkOptString(this, f, props[f]);
    check(!(props.userId && (props.organization || props.teamId)), this, 'userId', 'conflicts with organization and teamId');
    check(!!(props.userId || props.organization || props.teamId), this, 'organization', 'teamId or userId is required');
    const ttl = checkDuration(this, 'ttl', props.ttl, 0) ?? 0;
    const maxTtl = checkDuration(this, 'maxTtl', props.maxTtl, 0) ?? 0;
    if (!props.userId) check(ttl === 0 && maxTtl === 0, this, 'ttl', 'and maxTtl apply only to user roles (userId)');
    check(ttl === 0 || maxTtl === 0 || ttl <= maxTtl, this, 'ttl', `must not exceed maxTtl (${props.ttl} > ${props.maxTtl})`);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      mount: this.mount, name: this.name,
      organization: p.organization ?? '', teamId: p.teamId ?? '', userId: p.userId ?? '',
      ttl: normalDurationString(p.ttl ?? '0s'), maxTtl: normalDurationString(p.maxTtl ?? '0s'),
    };
  }
}
