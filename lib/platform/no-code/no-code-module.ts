import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { checkBoolean, checkObjectList } from '../prop-checks';
import { PlatformProvider } from '../provider';

/** Allowed values of one module variable in no-code workflows. */
export interface NoCodeVariableOption {
  /** Name of the variable in the module. */
  readonly variableName: string;
  /** Data type of the variable (`string`, `number`, …). */
  readonly variableType: string;
  /** The values a no-code user may choose from. */
  readonly options: any[];
}

/** Props of a no-code module: no-code provisioning of a private-registry module. */
export interface NoCodeModuleProps extends ResourceProps {
  /** Name of the organization (e.g. `org.name`). A change replaces the no-code module. */
  readonly organization: string;
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

const NAME_RE = /^[A-Za-z0-9_-]+$/;

/**
 * No-code provisioning of a private-registry module (with allowed variable values). The platform has
 * no delete for it: destroying the construct disables no-code provisioning.
 *
 * @example
 * new platform.NoCodeModule(stack, 'bucket-module', {
 *   organization: 'acme',
 *   moduleName: 'bucket',
 *   moduleProvider: 'aws',
 *   versionPin: '1.2.0',
 * });
 */
export class NoCodeModule extends Resource {
  private readonly props: NoCodeModuleProps;

  constructor(scope: Construct, id: string, props: NoCodeModuleProps) {
    super(scope, id, 'platform.NoCodeModule', 'platform', props, props.provider);
    // Naming the organization orders this construct after an Organization construct of that name.
    if (typeof props.organization === 'string') this._dependOnNamed('platform.Organization', props.organization);
    this.props = props;
    for (const f of ['organization', 'moduleName', 'moduleProvider'] as const) {
      check(typeof props[f] === 'string' && NAME_RE.test(props[f]), this, f, `"${props[f]}" may contain only letters, numbers, '-' and '_'`);
    }
    check(props.versionPin === undefined || (typeof props.versionPin === 'string' && props.versionPin.length > 0), this, 'versionPin', 'must be a version');
    checkBoolean(this, 'enabled', props.enabled);
    checkObjectList(this, 'variableOptions', props.variableOptions);
    const names = new Set<string>();
    (props.variableOptions ?? []).forEach((o, i) => {
      check(typeof o.variableName === 'string' && o.variableName.length > 0, this, `variableOptions[${i}].variableName`, 'is required');
      check(typeof o.variableType === 'string' && o.variableType.length > 0, this, `variableOptions[${i}].variableType`, 'is required');
      check(Array.isArray(o.options), this, `variableOptions[${i}].options`, 'must be a list');
      check(!names.has(o.variableName), this, `variableOptions[${i}].variableName`, `"${o.variableName}" is given twice`);
      names.add(o.variableName);
    });
  }

  /** The no-code module id (`nocode-…`), known once applied. */
  public get noCodeModuleId(): any {
    return this._attrRef('id');
  }

  /** The pinned version as applied (for NoCodeWorkspace's `moduleVersion`: workspaces upgrade when it changes). */
  public get pinnedVersion(): any {
    return this._attrRef('versionPin');
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      organization: p.organization,
      moduleName: p.moduleName,
      moduleProvider: p.moduleProvider,
      // Unset: the server picks the latest version and converge leaves the pin alone (not in the spec, never compared).
      ...(p.versionPin !== undefined ? { versionPin: p.versionPin } : {}),
      enabled: p.enabled ?? true,
      variableOptions: [...(p.variableOptions ?? [])]
        .sort((a, b) => a.variableName.localeCompare(b.variableName))
        .map((o) => ({ variableName: o.variableName, variableType: o.variableType, options: [...o.options] })),
    };
  }
}
