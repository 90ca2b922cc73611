import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check, checkInt } from '../../core/constructs/validation';
import { PlatformProvider } from '../provider';

/** Props of an organization's data retention policy (self-hosted edition only). */
export interface DataRetentionPolicyProps extends ResourceProps {
  /** Name of the organization (e.g. `org.name`). */
  readonly organization: string;
  /**
   * Delete state versions and runs older than this many days (type `data-retention-policy-delete-olders`).
   * Leave out to never delete (type `data-retention-policy-dont-deletes`).
   * @default - never delete
   */
  readonly deleteOlderThanNDays?: number;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * The data retention policy set explicitly on an organization (self-hosted edition only; the
 * hosted edition answers 404). Destroying it removes the explicit policy: the organization
 * inherits the installation default again.
 *
 * @example
 * new platform.DataRetentionPolicy(stack, 'retention', { organization: 'acme', deleteOlderThanNDays: 90 });
 */
export class DataRetentionPolicy extends Resource {
  private readonly props: DataRetentionPolicyProps;

  constructor(scope: Construct, id: string, props: DataRetentionPolicyProps) {
    super(scope, id, 'platform.DataRetentionPolicy', 'platform', props, props.provider);
    // Naming the organization orders this construct after an Organization construct of that name.
    if (typeof props.organization === 'string') this._dependOnNamed('platform.Organization', props.organization);
    this.props = props;
    check(typeof props.organization === 'string' && /^[A-Za-z0-9_-]+$/.test(props.organization), this, 'organization',
      `"${props.organization}" may contain only letters, numbers, '-' and '_'`);
    checkInt(this, 'deleteOlderThanNDays', props.deleteOlderThanNDays, 1);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return { organization: this.props.organization, deleteOlderThanNDays: this.props.deleteOlderThanNDays ?? null };
  }
}
