import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { IOrganization } from './organization';
import { ORGANIZATION_ENTITLEMENTS } from './organization-entitlements.schema';

/** Props of the OrganizationEntitlements data source. */
export interface OrganizationEntitlementsProps {
  /** The organization (an `Organization`, or `Organization.fromName`). */
  readonly organization: IOrganization;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * Reads an organization's entitlement set at plan time. Its limits (and id) are typed attributes;
 * every entitlement (`agents`, `auditLogging`, …) shows in the plan and in state.
 *
 * @example
 * const org = platform.Organization.fromName(stack, 'acme', 'acme');
 * new platform.OrganizationEntitlements(stack, 'entitlements', { organization: org });
 */
export class OrganizationEntitlements extends DataSource {
  /** The name of the organization whose entitlements are read. */
  public readonly organization: string;

  constructor(scope: Construct, id: string, props: OrganizationEntitlementsProps) {
    super(scope, id, ORGANIZATION_ENTITLEMENTS.kind, ORGANIZATION_ENTITLEMENTS.api, props.provider, props);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
    this.organization = props.organization.organizationName;
  }

  /** The entitlement set id: the organization external id (`org-…`). */
  public get entitlementSetId(): string {
    return this._attrString('id');
  }

  /** Most policies the organization may have (null: no limit). */
  public get policyLimit(): number {
    return this._attrNumber('policyLimit');
  }

  /** Most mandatory policy enforcements (null: no limit). */
  public get policyMandatoryEnforcementLimit(): number {
    return this._attrNumber('policyMandatoryEnforcementLimit');
  }

  /** Most policy sets (null: no limit). */
  public get policySetLimit(): number {
    return this._attrNumber('policySetLimit');
  }

  /** Most run tasks (null: no limit). */
  public get runTaskLimit(): number {
    return this._attrNumber('runTaskLimit');
  }

  /** Most mandatory run task enforcements (null: no limit). */
  public get runTaskMandatoryEnforcementLimit(): number {
    return this._attrNumber('runTaskMandatoryEnforcementLimit');
  }

  /** Most run tasks per workspace (null: no limit). */
  public get runTaskWorkspaceLimit(): number {
    return this._attrNumber('runTaskWorkspaceLimit');
  }

  /** Most users (null: no limit). */
  public get userLimit(): number {
    return this._attrNumber('userLimit');
  }

  /** Most versioned policy sets (null: no limit). */
  public get versionedPolicySetLimit(): number {
    return this._attrNumber('versionedPolicySetLimit');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return ORGANIZATION_ENTITLEMENTS;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    return { ...props, organization: refKey(props.organization, 'organizationName') };
  }
}
