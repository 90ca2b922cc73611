import { Construct } from 'constructs';
import { ExistingObject } from '../../core/constructs/existing-object';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { IOrganization } from '../organization/organization';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { IWorkspace } from '../workspace/i-workspace';
import { AGENT_POOL } from './agent-pool.schema';

/** An agent pool: one this app manages, or one looked up with `AgentPool.fromName`. */
export interface IAgentPool {
  /** The pool id (`apool-…`), known once read or applied (e.g. for an organization's `defaultAgentPoolId`). */
  readonly agentPoolId: string;
  /** The pool name. */
  readonly agentPoolName: string;
}

/** Props of an agent pool. */
export interface AgentPoolProps extends ResourceProps {
  /** The organization (an `Organization`, or `Organization.fromName`). A change replaces the pool. */
  readonly organization: IOrganization;
  /** Pool name: letters, numbers, `-` and `_`; unique in the organization. Renamed in place. */
  readonly name: string;
  /**
   * Every workspace of the organization may use the pool; false: only `allowedWorkspaces`.
   * @default true
   */
  readonly organizationScoped?: boolean;
  /**
   * The workspaces permitted to use the pool (`Workspace.fromName`, or a `Workspace` that does not
   * itself name this pool as its `agentPool`: that would make each wait for the other).
   * @default []
   */
  readonly allowedWorkspaces?: IWorkspace[];
  /**
   * On every apply, delete the pool's agents whose status is `unknown`, `errored` or `exited`
   * (the only statuses in which the platform lets an agent be deleted).
   * @default false
   */
  readonly deleteInactiveAgents?: boolean;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * An agent pool of an organization (agents are a paid feature: the organization needs the `agents`
 * entitlement; the platform allows one pool per organization).
 *
 * @example
 * const org = new platform.Organization(stack, 'org', { name: 'acme', email: 'ops@acme.io' });
 * new platform.AgentPool(stack, 'on-prem', { organization: org, name: 'on-prem', organizationScoped: true });
 */
export class AgentPool extends Resource implements IAgentPool {
  /**
   * An agent pool that exists outside this app, by its organization and name (unique in the
   * organization): read at plan time (the plan fails, naming this construct, when it does not exist),
   * never changed nor deleted.
   * @param provider the platform provider to read it with (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, organization: IOrganization, name: string, provider?: PlatformProvider): IAgentPool {
    return new ExistingAgentPool(scope, id, organization, name, provider);
  }

  /** The pool name. */
  public readonly name: string;
  /** The pool name. */
  public readonly agentPoolName: string;

  constructor(scope: Construct, id: string, props: AgentPoolProps) {
    super(scope, id, AGENT_POOL.kind, AGENT_POOL.api, props, props.provider);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
    (Array.isArray(props.allowedWorkspaces) ? props.allowedWorkspaces : []).forEach((w, i) => useReference(this, `allowedWorkspaces[${i}]`, w, 'workspaceId', 'a workspace (a Workspace, or Workspace.fromName)'));
    this.name = props.name;
    this.agentPoolName = props.name;
  }

  /** The pool id (`apool-…`), known once applied (e.g. for an organization's `defaultAgentPoolId`). */
  public get agentPoolId(): string {
    return this._attrString('id');
  }

  /** How many agents the pool holds, as last read or applied. */
  public get agentCount(): number {
    return this._attrNumber('agentCount');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return AGENT_POOL;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    const { allowedWorkspaces, ...rest } = props;
    return {
      ...rest,
      organization: refKey(props.organization, 'organizationName'),
      ...(allowedWorkspaces !== undefined ? { allowedWorkspaces: (Array.isArray(allowedWorkspaces) ? allowedWorkspaces.map((w) => refKey(w, 'workspaceId')) : allowedWorkspaces) } : {}),
    };
  }
}

/** An agent pool looked up by organization and name (`AgentPool.fromName`): the import id `<organization>/<name>`. */
class ExistingAgentPool extends ExistingObject implements IAgentPool {
  public readonly agentPoolName: string;

  constructor(scope: Construct, id: string, organization: IOrganization, name: string, provider?: PlatformProvider) {
    super(scope, id, AGENT_POOL.kind, AGENT_POOL.api, `${organization.organizationName}/${name}`, 'organization and name', provider);
    this.agentPoolName = name;
  }

  public get agentPoolId(): string {
    return this._attrString('id');
  }
}
