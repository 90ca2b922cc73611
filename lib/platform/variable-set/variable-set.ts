import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { IOrganization } from '../organization/organization';
import { IProject } from '../project/project';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { IWorkspace } from '../workspace/i-workspace';
import { IVariableSet } from './i-variable-set';
import { VARIABLE_SET } from './variable-set.schema';

/** Props of a variable set. */
export interface VariableSetProps extends ResourceProps {
  /** The organization (an `Organization`, or `Organization.fromName`). A change replaces the set. */
  readonly organization: IOrganization;
  /** Name: unique in the organization (1 to 128 characters). Renamed in place. */
  readonly name: string;
  /**
   * Description.
   * @default ''
   */
  readonly description?: string;
  /**
   * Applies to every workspace of the organization (then `workspaces` and `projects` must be empty).
   * @default false
   */
  readonly global?: boolean;
  /**
   * Its variables override those of the workspaces (and of other sets).
   * @default false
   */
  readonly priority?: boolean;
  /**
   * The workspaces it applies to (`Workspace`s, or `Workspace.fromName`).
   * @default []
   */
  readonly workspaces?: IWorkspace[];
  /**
   * The projects it applies to, and so to each of their workspaces (`Project`s, or `Project.fromName`).
   * @default []
   */
  readonly projects?: IProject[];
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * A variable set of an organization, applied to workspaces and projects (or to all, `global`).
 *
 * @example
 * const org = platform.Organization.fromName(stack, 'acme', 'acme');
 * const apps = new platform.Project(stack, 'apps', { organization: org, name: 'apps' });
 * new platform.VariableSet(stack, 'cloud', { organization: org, name: 'cloud credentials', projects: [apps] });
 */
export class VariableSet extends Resource implements IVariableSet {
  constructor(scope: Construct, id: string, props: VariableSetProps) {
    super(scope, id, VARIABLE_SET.kind, VARIABLE_SET.api, props, props.provider);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
    (Array.isArray(props.workspaces) ? props.workspaces : []).forEach((w, i) => useReference(this, `workspaces[${i}]`, w, 'workspaceId', 'a workspace (a Workspace, or Workspace.fromName)'));
    (Array.isArray(props.projects) ? props.projects : []).forEach((p, i) => useReference(this, `projects[${i}]`, p, 'projectId', 'a project (a Project, or Project.fromName)'));
    check(!props.global || (!props.workspaces?.length && !props.projects?.length), this, 'global', 'applies to every workspace: leave workspaces and projects empty');
  }

  /** The set id (`varset-…`), known once applied. */
  public get variableSetId(): string {
    return this._attrString('id');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return VARIABLE_SET;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    // A value that is no list is passed on as it is, for the schema to refuse naming the field.
    const ids = (list: unknown, key: string) => (Array.isArray(list) ? list.map((x) => refKey(x, key)) : list);
    return {
      ...props,
      organization: refKey(props.organization, 'organizationName'),
      ...(props.workspaces !== undefined ? { workspaces: ids(props.workspaces, 'workspaceId') } : {}),
      ...(props.projects !== undefined ? { projects: ids(props.projects, 'projectId') } : {}),
    };
  }
}
