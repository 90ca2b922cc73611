import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check, checkDuration, checkOneOf } from '../../core/constructs/validation';
import { checkBoolean, checkObjectList, checkString } from '../prop-checks';
import { PlatformProvider } from '../provider';

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
  /** Name of the organization (e.g. `org.name`). */
  readonly organization: string;
  /** The no-code module (`nocode-…`, e.g. `noCodeModule.noCodeModuleId`). A change replaces the workspace. */
  readonly noCodeModuleId: string;
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

const NAME_RE = /^[A-Za-z0-9_-]+$/;

/**
 * A workspace created from a no-code module, with its variables (sensitive ones from
 * `SecretValue`s). Version and variable changes run the platform's upgrade sequence.
 *
 * @example
 * const mod = new platform.NoCodeModule(stack, 'bucket-module', { organization: 'acme', moduleName: 'bucket', moduleProvider: 'aws' });
 * new platform.NoCodeWorkspace(stack, 'team-bucket', {
 *   organization: 'acme',
 *   name: 'team-bucket',
 *   noCodeModuleId: mod.noCodeModuleId,
 *   projectId: 'prj-AbCdEf123456',
 *   variables: [{ key: 'region', value: 'eu-west-1' }],
 * });
 */
export class NoCodeWorkspace extends Resource {
  /** The workspace name. */
  public readonly name: string;
  private readonly props: NoCodeWorkspaceProps;

  constructor(scope: Construct, id: string, props: NoCodeWorkspaceProps) {
    super(scope, id, 'platform.NoCodeWorkspace', 'platform', props, props.provider);
    // Naming the organization orders this construct after an Organization construct of that name.
    if (typeof props.organization === 'string') this._dependOnNamed('platform.Organization', props.organization);
    this.props = props;
    this.name = props.name;
    check(typeof props.organization === 'string' && NAME_RE.test(props.organization), this, 'organization',
      `"${props.organization}" may contain only letters, numbers, '-' and '_'`);
    check(typeof props.name === 'string' && NAME_RE.test(props.name), this, 'name', `"${props.name}" may contain only letters, numbers, '-' and '_'`);
    checkString(this, 'noCodeModuleId', props.noCodeModuleId, { required: true, allowRef: true });
    checkString(this, 'projectId', props.projectId, { required: true, allowRef: true });
    checkString(this, 'description', props.description);
    checkBoolean(this, 'autoApply', props.autoApply);
    checkString(this, 'moduleVersion', props.moduleVersion, { allowRef: true });
    checkString(this, 'upgradeTimeout', props.upgradeTimeout);
    checkString(this, 'upgradePollInterval', props.upgradePollInterval);
    checkObjectList(this, 'variables', props.variables);
    check(typeof props.noCodeModuleId !== 'string' || /^nocode-/.test(props.noCodeModuleId), this, 'noCodeModuleId', `"${props.noCodeModuleId}" is not a no-code module id (nocode-…)`);
    check(typeof props.projectId !== 'string' || /^prj-/.test(props.projectId), this, 'projectId', `"${props.projectId}" is not a project id (prj-…)`);
    checkDuration(this, 'upgradeTimeout', props.upgradeTimeout, 1);
    checkDuration(this, 'upgradePollInterval', props.upgradePollInterval, 0);
    const keys = new Set<string>();
    (props.variables ?? []).forEach((v, i) => {
      check(typeof v.key === 'string' && v.key.length > 0, this, `variables[${i}].key`, 'is required');
      check(!(v.value !== undefined && v.sensitiveValue !== undefined), this, `variables[${i}]`, 'give either value or sensitiveValue, not both');
      check(v.sensitiveValue === undefined || v.sensitiveValue instanceof SecretValue, this, `variables[${i}].sensitiveValue`, 'must be a SecretValue');
      checkOneOf(this, `variables[${i}].category`, v.category, Object.values(VariableCategory));
      const k = `${v.category ?? 'engine'}/${v.key}`;
      check(!keys.has(k), this, `variables[${i}].key`, `"${v.key}" is given twice`);
      keys.add(k);
    });
  }

  /** The workspace id (`ws-…`), known once applied. */
  public get workspaceId(): any {
    return this._attrRef('id');
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      organization: p.organization,
      noCodeModuleId: p.noCodeModuleId,
      projectId: p.projectId,
      name: p.name,
      description: p.description ?? '',
      autoApply: p.autoApply ?? false,
      variables: (p.variables ?? []).map((v) => ({
        key: v.key,
        value: v.sensitiveValue ?? v.value ?? '',
        category: v.category ?? VariableCategory.ENGINE,
        hcl: v.hcl ?? false,
        sensitive: v.sensitiveValue !== undefined,
        description: v.description ?? '',
      })),
      // Unset: not managed (not in the spec, never compared).
      ...(p.moduleVersion !== undefined ? { moduleVersion: p.moduleVersion } : {}),
      upgradeTimeout: p.upgradeTimeout ?? '10m',
      upgradePollInterval: p.upgradePollInterval ?? '2s',
    };
  }
}
