import { Construct } from 'constructs';
import { ExistingObject } from '../../core/constructs/existing-object';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { IOrganization } from '../organization/organization';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { NO_CODE_MODULE } from './no-code-module.schema';

/** No-code provisioning of a registry module: one this app manages, or one looked up with `NoCodeModule.fromRegistryModule`. */
export interface INoCodeModule {
  /** The no-code module id (`nocode-…`), known once read or applied. */
  readonly noCodeModuleId: string;
  /** The version pinned for no-code workflows, known once read or applied (for NoCodeWorkspace's `moduleVersion`). */
  readonly pinnedVersion: string;
}

/** Allowed values of one module variable in no-code workflows. */
export interface NoCodeVariableOption {
  /** Name of the variable in the module. */
  readonly variableName: string;
  /** Data type of the variable (`string`, `number`, …). */
  readonly variableType: string;
  /** The values a no-code user may choose from (numbers and booleans as their text, as the platform's Terraform provider takes them). */
  readonly options: string[];
}

/** Props of a no-code module: no-code provisioning of a private-registry module. */
export interface NoCodeModuleProps extends ResourceProps {
  /** The organization (an `Organization`, or `Organization.fromName`). A change replaces the no-code module. */
  readonly organization: IOrganization;
  /** Name of the module in the organization's private registry. */
  readonly moduleName: string;
  /** Provider of the registry module (e.g. `aws`). */
  readonly moduleProvider: string;
  /**
   * Module version used in no-code workflows.
   * @default - the latest version when enabled; then not managed
   */
  readonly versionPin?: string;
  /**
   * Whether no-code provisioning is enabled.
   * @default true
   */
  readonly enabled?: boolean;
  /**
   * Allowed values of variables, one entry per variable.
   * @default []
   */
  readonly variableOptions?: NoCodeVariableOption[];
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * No-code provisioning of a private-registry module (with allowed variable values). The platform has
 * no delete for it: destroying the construct disables no-code provisioning.
 *
 * @example
 * new platform.NoCodeModule(stack, 'bucket-module', {
 *   organization: platform.Organization.fromName(stack, 'acme', 'acme'),
 *   moduleName: 'bucket',
 *   moduleProvider: 'aws',
 *   versionPin: '1.2.0',
 * });
 */
export class NoCodeModule extends Resource implements INoCodeModule {
  /**
   * The no-code module of a private-registry module that exists outside this app, by its registry
   * module (organization, module name and provider; a registry module has at most one): read at plan
   * time (the plan fails, naming this construct, when it does not exist), never changed nor deleted.
   * @param provider the platform provider to read it with (default: the stack's)
   */
  public static fromRegistryModule(scope: Construct, id: string, organization: IOrganization, moduleName: string, moduleProvider: string,
    provider?: PlatformProvider): INoCodeModule {
    return new ExistingNoCodeModule(scope, id, `${organization.organizationName}/${moduleName}/${moduleProvider}`, provider);
  }

  constructor(scope: Construct, id: string, props: NoCodeModuleProps) {
    super(scope, id, NO_CODE_MODULE.kind, NO_CODE_MODULE.api, props, props.provider);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
    const names = new Set<string>();
    (props.variableOptions ?? []).forEach((o, i) => {
      check(Array.isArray(o.options), this, `variableOptions[${i}].options`, 'must be a list');
      check(!names.has(o.variableName), this, `variableOptions[${i}].variableName`, `"${o.variableName}" is given twice`);
      names.add(o.variableName);
    });
  }

  /** The no-code module id (`nocode-…`), known once applied. */
  public get noCodeModuleId(): string {
    return this._attrString('id');
  }

  /** The pinned version as applied (for NoCodeWorkspace's `moduleVersion`: workspaces upgrade when it changes). */
  public get pinnedVersion(): string {
    return this._attrString('versionPin');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return NO_CODE_MODULE;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    const options = props.variableOptions;
    return {
      ...props,
      organization: refKey(props.organization, 'organizationName'),
      // Matched by variable name: kept sorted by it, so that the order given is no change.
      ...(Array.isArray(options) ? { variableOptions: [...options].sort((a, b) => String(a?.variableName).localeCompare(String(b?.variableName))) } : {}),
    };
  }
}

/** A no-code module looked up by its registry module (`NoCodeModule.fromRegistryModule`): the import id `<organization>/<module>/<provider>`. */
class ExistingNoCodeModule extends ExistingObject implements INoCodeModule {
  constructor(scope: Construct, id: string, registryModule: string, provider?: PlatformProvider) {
    super(scope, id, NO_CODE_MODULE.kind, NO_CODE_MODULE.api, registryModule, 'organization, module name and provider', provider);
  }

  public get noCodeModuleId(): string {
    return this._attrString('id');
  }

  public get pinnedVersion(): string {
    return this._attrString('versionPin');
  }
}
