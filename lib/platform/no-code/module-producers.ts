import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { PlatformProvider } from '../provider';

/** Props of the ModuleProducers data source. */
export interface ModuleProducersProps {
  /** Name of the organization (e.g. `org.name`). */
  readonly organization: string;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * Reads the organizations that produce modules for an organization (self-hosted edition only).
 * Outputs: `producers` (list of `{name, externalId}`) and `names`.
 *
 * @example
 * new platform.ModuleProducers(stack, 'producers', { organization: 'acme' });
 */
export class ModuleProducers extends DataSource {
  private readonly organization: string;

  constructor(scope: Construct, id: string, props: ModuleProducersProps) {
    super(scope, id, 'platform.ModuleProducers', 'platform', props.provider, props);
    // Naming the organization orders this construct after an Organization construct of that name.
    if (typeof props.organization === 'string') this._dependOnNamed('platform.Organization', props.organization);
    check(typeof props.organization === 'string' && /^[A-Za-z0-9_-]+$/.test(props.organization), this, 'organization',
      `"${props.organization}" may contain only letters, numbers, '-' and '_'`);
    this.organization = props.organization;
  }

  /** A reference to one output (`names`, `producers`), resolved when converge applies. */
  public attribute(name: string): any {
    return this._attrRef(name);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return { organization: this.organization };
  }
}
