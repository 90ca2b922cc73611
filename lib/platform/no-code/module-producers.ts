import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { IOrganization } from '../organization/organization';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { MODULE_PRODUCERS } from './module-producers.schema';

/** Props of the ModuleProducers data source. */
export interface ModuleProducersProps {
  /** The organization (an `Organization`, or `Organization.fromName`). */
  readonly organization: IOrganization;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * Reads the organizations that produce modules for an organization (self-hosted edition only):
 * their names (`names`); each producer's `{name, externalId}` shows in the plan and state (output `producers`).
 *
 * @example
 * new platform.ModuleProducers(stack, 'producers', { organization: platform.Organization.fromName(stack, 'acme', 'acme') });
 */
export class ModuleProducers extends DataSource {
  constructor(scope: Construct, id: string, props: ModuleProducersProps) {
    super(scope, id, MODULE_PRODUCERS.kind, MODULE_PRODUCERS.api, props.provider, props);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
  }

  /** The names of the producing organizations, resolved when converge plans. */
  public get names(): string[] {
    return this._attrList('names');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return MODULE_PRODUCERS;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    return { ...props, organization: refKey(props.organization, 'organizationName') };
  }
}
