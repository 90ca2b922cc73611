import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { VariableCategory } from '../no-code/no-code-workspace';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { IVariableSet } from '../variable-set/i-variable-set';
import { IWorkspace } from '../workspace/i-workspace';
import { VARIABLE } from './variable.schema';

/**
 * Props of a variable of a workspace or of a variable set: a plain `value`, or a `sensitiveValue` (never in state,
 * never read back).
 */
export interface VariableProps extends ResourceProps {
  /**
   * The workspace (a `Workspace`, or `Workspace.fromName`). A change replaces the variable.
   * @default - none: give `variableSet` instead (one of the two is required)
   */
  readonly workspace?: IWorkspace;
  /**
   * The variable set whose own variable this is (a `VariableSet`), as the Terraform provider's `variable_set_id`.
   * A change replaces the variable.
   * @default - none: give `workspace` instead
   */
  readonly variableSet?: IVariableSet;
  /** The variable's name: letters, numbers, `_`, `.` and `-`; unique in its workspace or set per category. Renamed in place. */
  readonly key: string;
  /**
   * The value, in clear (kept in state and shown in plans): for a secret use `sensitiveValue`.
   * @default '' (unless `sensitiveValue` is given)
   */
  readonly value?: string;
  /**
   * The value of a sensitive variable: sent, never read back (the platform answers null), compared
   * by its HMAC. Giving it makes the variable sensitive; adding or removing it replaces the variable.
   * @default - none: a plain variable (`value`)
   */
  readonly sensitiveValue?: SecretValue;
  /**
   * An input variable of the configuration (`ENGINE`, the spec's name for a Terraform variable) or an environment variable of the runs (`ENV`).
   * @default VariableCategory.ENGINE
   */
  readonly category?: VariableCategory;
  /**
   * Evaluate the value as HCL (input variables only).
   * @default false
   */
  readonly hcl?: boolean;
  /**
   * Description.
   * @default ''
   */
  readonly description?: string;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * A variable of a workspace, or of a variable set (then applied to the set's workspaces and projects): an input
 * variable of the configuration or an environment variable of the runs.
 *
 * @example
 * const ws = platform.Workspace.fromName(stack, 'web', platform.Organization.fromName(stack, 'acme', 'acme'), 'web');
 * new platform.Variable(stack, 'region', { workspace: ws, key: 'region', value: 'eu-west-1' });
 * new platform.Variable(stack, 'token', { workspace: ws, key: 'API_TOKEN', category: platform.VariableCategory.ENV, sensitiveValue: SecretValue.fromEnv('API_TOKEN') });
 * const creds = new platform.VariableSet(stack, 'creds', { organization: platform.Organization.fromName(stack, 'org', 'acme'), name: 'cloud', workspaces: [ws] });
 * new platform.Variable(stack, 'cloud-key', { variableSet: creds, key: 'CLOUD_KEY', category: platform.VariableCategory.ENV, sensitiveValue: SecretValue.fromEnv('CLOUD_KEY') });
 */
export class Variable extends Resource {
  constructor(scope: Construct, id: string, props: VariableProps) {
    super(scope, id, VARIABLE.kind, VARIABLE.api, props, props.provider);
    useReference(this, 'workspace', props.workspace, 'workspaceId', 'a workspace (a Workspace, or Workspace.fromName)');
    useReference(this, 'variableSet', props.variableSet, 'variableSetId', 'a variable set (a VariableSet)');
    check(props.workspace !== undefined || props.variableSet !== undefined, this, 'workspace', 'is required (or variableSet, for a variable of a variable set)');
    check(props.workspace === undefined || props.variableSet === undefined, this, 'variableSet', 'cannot be given with workspace (a variable belongs to one workspace or one set)');
    check(props.value === undefined || props.sensitiveValue === undefined, this, 'value', 'cannot be given with sensitiveValue (a variable is plain or sensitive)');
    check(!props.hcl || props.category !== VariableCategory.ENV, this, 'hcl', 'applies to input variables only (category ENGINE)');
  }

  /** The variable id (`var-…`), known once applied. */
  public get variableId(): string {
    return this._attrString('id');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return VARIABLE;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    return { ...props, workspace: refKey(props.workspace, 'workspaceId'), variableSet: refKey(props.variableSet, 'variableSetId') };
  }
}
