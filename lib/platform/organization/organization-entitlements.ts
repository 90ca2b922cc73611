import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { PlatformProvider } from '../provider';

/** Props of the OrganizationEntitlements data source. */
export interface OrganizationEntitlementsProps {
  /** Name of the organization (e.g. `org.name`). */
  readonly organization: string;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * Reads an organization's entitlement set at plan time. Outputs: `id` (the organization external id)
 * and every attribute camelCased (`agents`, `auditLogging`, …, `policyLimit`, `userLimit`, …).
 *
 * @example
 * new platform.OrganizationEntitlements(stack, 'entitlements', { organization: 'acme' });
 */
export class OrganizationEntitlements extends DataSource {
  /** The organization whose entitlements are read. */
  public readonly organization: string;

  constructor(scope: Construct, id: string, props: OrganizationEntitlementsProps) {
    super(scope, id, 'platform.OrganizationEntitlements', 'platform', props.provider, props);
    // Naming the organization orders this construct after an Organization construct of that name.
    if (typeof props.organization === 'string') this._dependOnNamed('platform.Organization', props.organization);
    check(typeof props.organization === 'string' && /^[A-Za-z0-9_-]+$/.test(props.organization), this, 'organization',
      `"${props.organization}" may contain only letters, numbers, '-' and '_'`);
    this.organization = props.organization;
  }

  /** A reference to one output (e.g. `agents`), resolved when converge applies. */
  public attribute(name: string): any {
    return this._attrRef(name);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return { organization: this.organization };
  }
}
