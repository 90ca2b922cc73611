import { Construct } from 'constructs';
import { ExistingObject } from '../../core/constructs/existing-object';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { IAgentPool } from '../agent-pool/agent-pool';
import { ExecutionMode, IOrganization } from '../organization/organization';
import { IProject } from '../project/project';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { IWorkspace } from './i-workspace';
import { WORKSPACE } from './workspace.schema';

/** Props of a workspace. */
export interface WorkspaceProps extends ResourceProps {
  /** The organization (an `Organization`, or `Organization.fromName`). A change replaces the workspace. */
  readonly organization: IOrganization;
  /** Workspace name: letters, numbers, `-` and `_`; unique in the organization. Renamed in place. */
  readonly name: string;
  /**
   * Description.
   * @default ''
   */
  readonly description?: string;
  /**
   * The project that holds the workspace (a `Project`, or `Project.fromName`); moved in place.
   * @default - the organization's default project (where the workspace is is then not managed)
   */
  readonly project?: IProject;
  /**
   * Where the workspace's runs execute; `AGENT` needs `agentPool`.
   * @default ExecutionMode.REMOTE
   */
  readonly executionMode?: ExecutionMode;
  /**
   * The agent pool the runs execute on (an `AgentPool`, or `AgentPool.fromName`): only with `ExecutionMode.AGENT`.
   * @default - none
   */
  readonly agentPool?: IAgentPool;
  /**
   * Terraform version of the runs (`1.9.5`, or `latest`): the spec's `engine-version`.
   * @default - the version the platform gives a new workspace (not managed)
   */
  readonly terraformVersion?: string;
  /**
   * Directory of the configuration, relative to the root of the repository or upload.
   * @default '' (the root)
   */
  readonly workingDirectory?: string;
  /**
   * Apply a run's plan without a confirmation.
   * @default false
   */
  readonly autoApply?: boolean;
  /**
   * Tags: lowercase letters, numbers, colons, hyphens and underscores.
   * @default []
   */
  readonly tags?: string[];
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * A workspace of an organization. Destroying it deletes its state versions and runs.
 *
 * @example
 * const org = platform.Organization.fromName(stack, 'acme', 'acme');
 * const apps = new platform.Project(stack, 'apps', { organization: org, name: 'apps' });
 * new platform.Workspace(stack, 'web', { organization: org, name: 'web', project: apps, terraformVersion: '1.9.5', tags: ['team:web'] });
 */
export class Workspace extends Resource implements IWorkspace {
  /**
   * A workspace that exists outside this app, by its organization and name (unique in the
   * organization): read at plan time (the plan fails, naming this construct, when it does not
   * exist), never changed nor deleted.
   * @param provider the platform provider to read it with (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, organization: IOrganization, name: string, provider?: PlatformProvider): IWorkspace {
    return new ExistingWorkspace(scope, id, organization, name, provider);
  }

  /** The workspace name. */
  public readonly workspaceName: string;

  constructor(scope: Construct, id: string, props: WorkspaceProps) {
    super(scope, id, WORKSPACE.kind, WORKSPACE.api, props, props.provider);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
    useReference(this, 'project', props.project, 'projectId', 'a project (a Project, or Project.fromName)');
    useReference(this, 'agentPool', props.agentPool, 'agentPoolId', 'an agent pool (an AgentPool, or AgentPool.fromName)');
    const agent = props.executionMode === ExecutionMode.AGENT;
    check(!agent || props.agentPool !== undefined, this, 'agentPool', 'is required with ExecutionMode.AGENT');
    check(agent || props.agentPool === undefined, this, 'agentPool', 'is only used with ExecutionMode.AGENT (set executionMode)');
    this.workspaceName = props.name;
  }

  /** The workspace id (`ws-…`), known once applied. */
  public get workspaceId(): string {
    return this._attrString('id');
  }

  /** The Terraform version of the runs, as last read or applied. */
  public get currentTerraformVersion(): string {
    return this._attrString('terraformVersion');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return WORKSPACE;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    const { project, agentPool, ...rest } = props;
    return {
      ...rest,
      organization: refKey(props.organization, 'organizationName'),
      ...(project !== undefined ? { projectId: refKey(project, 'projectId') } : {}),
      ...(agentPool !== undefined ? { agentPoolId: refKey(agentPool, 'agentPoolId') } : {}),
    };
  }
}

/** A workspace looked up by organization and name (`Workspace.fromName`): the import id `<organization>/<name>`. */
class ExistingWorkspace extends ExistingObject implements IWorkspace {
  public readonly workspaceName: string;

  constructor(scope: Construct, id: string, organization: IOrganization, name: string, provider?: PlatformProvider) {
    super(scope, id, WORKSPACE.kind, WORKSPACE.api, `${organization.organizationName}/${name}`, 'organization and name', provider);
    this.workspaceName = name;
  }

  public get workspaceId(): string {
    return this._attrString('id');
  }
}
