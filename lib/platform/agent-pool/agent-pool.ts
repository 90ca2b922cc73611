import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { checkBoolean, checkStringList } from '../prop-checks';
import { PlatformProvider } from '../provider';
import { stringSet } from '../../core/string-set';

/** Props of an agent pool. */
export interface AgentPoolProps extends ResourceProps {
  /** Name of the organization (e.g. `org.name`). A change replaces the pool. */
  readonly organization: string;
  /** Pool name: letters, numbers, `-` and `_`; unique in the organization. Renamed in place. */
  readonly name: string;
  /**
   * Every workspace of the organization may use the pool; false: only `allowedWorkspaces`.
   * @default true
   */
  readonly organizationScoped?: boolean;
  /**
   * Workspace ids (`ws-…`) permitted to use the pool.
   * @default []
   */
  readonly allowedWorkspaces?: string[];
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

const NAME_RE = /^[A-Za-z0-9_-]+$/;

/**
 * An agent pool of an organization (agents are a paid feature: the organization needs the `agents`
 * entitlement; the platform allows one pool per organization).
 *
 * @example
 * const org = new platform.Organization(stack, 'org', { name: 'acme', email: 'ops@acme.io' });
 * new platform.AgentPool(stack, 'on-prem', { organization: org.name, name: 'on-prem', organizationScoped: true });
 */
export class AgentPool extends Resource {
  /** The pool name. */
  public readonly name: string;
  private readonly props: AgentPoolProps;

  constructor(scope: Construct, id: string, props: AgentPoolProps) {
    super(scope, id, 'platform.AgentPool', 'platform', props, props.provider);
    // Naming the organization orders this construct after an Organization construct of that name.
    if (typeof props.organization === 'string') this._dependOnNamed('platform.Organization', props.organization);
    this.props = props;
    this.name = props.name;
    check(typeof props.organization === 'string' && NAME_RE.test(props.organization), this, 'organization',
      `"${props.organization}" may contain only letters, numbers, '-' and '_'`);
    check(typeof props.name === 'string' && NAME_RE.test(props.name), this, 'name',
      `"${props.name}" may contain only letters, numbers, '-' and '_'`);
    checkBoolean(this, 'organizationScoped', props.organizationScoped);
    checkBoolean(this, 'deleteInactiveAgents', props.deleteInactiveAgents);
    checkStringList(this, 'allowedWorkspaces', props.allowedWorkspaces, true);
    for (const w of props.allowedWorkspaces ?? []) {
      check(typeof w !== 'string' || /^ws-/.test(w), this, 'allowedWorkspaces', `"${w}" is not a workspace id (ws-…)`);
    }
  }

  /** The pool id (`apool-…`), known once applied (e.g. for an organization's `defaultAgentPoolId`). */
  public get agentPoolId(): any {
    return this._attrRef('id');
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      organization: p.organization,
      name: p.name,
      organizationScoped: p.organizationScoped ?? true,
      allowedWorkspaces: stringSet(p.allowedWorkspaces),
      deleteInactiveAgents: p.deleteInactiveAgents ?? false,
    };
  }
}
