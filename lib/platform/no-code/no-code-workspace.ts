import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { IOrganization } from '../organization/organization';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { INoCodeModule } from './no-code-module';
import { NO_CODE_WORKSPACE } from './no-code-workspace.schema';

/** Where a workspace variable goes. */
export enum VariableCategory {
  /** An input variable of the configuration. */
  ENGINE = 'engine',
  /** An environment variable of the runs. */
  ENV = 'env',
}

/** A variable of a no-code workspace. */
export interface NoCodeWorkspaceVariable {
  /** Variable name. */
  readonly key: string;
  /**
   * The value in plain text (leave out for a `sensitiveValue`).
   * @default ''
   */
  readonly value?: string;
  /**
   * A sensitive value: written once, never readable afterwards; the variable is marked sensitive.
   * @default - none (the plain `value` is used)
   */
  readonly sensitiveValue?: SecretValue;
  /**
   * Input variable or environment variable.
   * @default VariableCategory.ENGINE
   */
  readonly category?: VariableCategory;
  /**
   * Evaluate the value as HCL (no effect for environment variables).
   * @default false
   */
  readonly hcl?: boolean;
  /**
   * Description.
   * @default ''
   */
  readonly description?: string;
}

/** Props of a workspace created from a no-code module. */
export interface NoCodeWorkspaceProps extends ResourceProps {
  /** The organization (an `Organization`, or `Organization.fromName`). A change replaces the workspace. */
  readonly organization: IOrganization;
  /** The no-code module (a `NoCodeModule`, or `NoCodeModule.fromRegistryModule`). A change replaces the workspace. */
  readonly noCodeModule: INoCodeModule;
  /** Project (`prj-…`) to create the workspace in. A change replaces the workspace. */
  readonly projectId: string;
  /** Workspace name: letters, numbers, `-` and `_`; unique in the organization. Renamed in place. */
  readonly name: string;
  /**
   * Description.
   * @default ''
   */
  readonly description?: string;
  /**
   * Apply automatically after a successful plan.
   * @default false
   */
  readonly autoApply?: boolean;
  /**
   * Variables of the workspace. A change is applied by an upgrade run.
   * @default []
   */
  readonly variables?: NoCodeWorkspaceVariable[];
  /**
   * The module version the workspace should run, usually `noCodeModule.pinnedVersion`: when it
   * changes and the workspace reports an upgrade available, apply upgrades it (plan, wait, confirm).
   * @default - not managed (no upgrade is started for a version change)
   */
  readonly moduleVersion?: string;
  /**
   * How long an upgrade plan may take before apply fails.
   * @default '10m'
   */
  readonly upgradeTimeout?: string;
  /**
   * How often the upgrade plan's status is polled.
   * @default '2s'
   */
  readonly upgradePollInterval?: string;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * A workspace created from a no-code module, with its variables (sensitive ones from
 * `SecretValue`s). Version and variable changes run the platform's upgrade sequence.
 *
 * @example
 * const org = platform.Organization.fromName(stack, 'acme', 'acme');
 * const mod = new platform.NoCodeModule(stack, 'bucket-module', { organization: org, moduleName: 'bucket', moduleProvider: 'aws' });
 * new platform.NoCodeWorkspace(stack, 'team-bucket', {
 *   organization: org,
 *   name: 'team-bucket',
 *   noCodeModule: mod,
 *   projectId: 'prj-AbCdEf123456',
 *   variables: [{ key: 'region', value: 'eu-west-1' }],
 * });
 */
export class NoCodeWorkspace extends Resource {
  /** The workspace name. */
  public readonly name: string;

  constructor(scope: Construct, id: string, props: NoCodeWorkspaceProps) {
    super(scope, id, NO_CODE_WORKSPACE.kind, NO_CODE_WORKSPACE.api, props, props.provider);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
    useReference(this, 'noCodeModule', props.noCodeModule, 'noCodeModuleId', 'a no-code module (a NoCodeModule, or NoCodeModule.fromRegistryModule)');
    this.name = props.name;
    const keys = new Set<string>();
    (props.variables ?? []).forEach((v, i) => {
      check(!(v.value !== undefined && v.sensitiveValue !== undefined), this, `variables[${i}]`, 'give either value or sensitiveValue, not both');
      check(v.sensitiveValue === undefined || v.sensitiveValue instanceof SecretValue, this, `variables[${i}].sensitiveValue`, 'must be a SecretValue');
      const k = `${v.category ?? 'engine'}/${v.key}`;
      check(!keys.has(k), this, `variables[${i}].key`, `"${v.key}" is given twice`);
      keys.add(k);
    });
  }

  /** The workspace id (`ws-…`), known once applied. */
  public get workspaceId(): string {
    return this._attrString('id');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return NO_CODE_WORKSPACE;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    const vars = props.variables;
    return {
      ...props,
      organization: refKey(props.organization, 'organizationName'),
      noCodeModuleId: refKey(props.noCodeModule, 'noCodeModuleId'),
      // The API's variable: a sensitive one holds its SecretValue as its value.
      ...(Array.isArray(vars) ? {
        variables: vars.map((v) => (v && typeof v === 'object' ? (({ sensitiveValue, ...rest }) => ({
          ...rest, ...(sensitiveValue !== undefined ? { value: sensitiveValue } : {}), sensitive: sensitiveValue !== undefined,
        }))(v) : v)),
      } : {}),
    };
  }
}
