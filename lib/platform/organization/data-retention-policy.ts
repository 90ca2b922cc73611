import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { DATA_RETENTION_POLICY } from './data-retention-policy.schema';
import { IOrganization } from './organization';

/** Props of an organization's data retention policy (self-hosted edition only). */
export interface DataRetentionPolicyProps extends ResourceProps {
  /** The organization (an `Organization`, or `Organization.fromName`). A change replaces the policy. */
  readonly organization: IOrganization;
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
 * new platform.DataRetentionPolicy(stack, 'retention', { organization: platform.Organization.fromName(stack, 'acme', 'acme'), deleteOlderThanNDays: 90 });
 */
export class DataRetentionPolicy extends Resource {
  constructor(scope: Construct, id: string, props: DataRetentionPolicyProps) {
    super(scope, id, DATA_RETENTION_POLICY.kind, DATA_RETENTION_POLICY.api, props, props.provider);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return DATA_RETENTION_POLICY;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    return { ...props, organization: refKey(props.organization, 'organizationName') };
  }
}
