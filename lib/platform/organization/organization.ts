import { Construct } from 'constructs';
import { RemovalPolicy } from '../../core/constructs/removal-policy';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check, checkInt, checkOneOf } from '../../core/constructs/validation';
import { PlatformProvider } from '../provider';

/** How collaborators of an organization authenticate. */
export enum CollaboratorAuthPolicy {
  /** A password is enough. */
  PASSWORD = 'password',
  /** Two-factor authentication is required. */
  TWO_FACTOR_MANDATORY = 'two_factor_mandatory',
}

/** Where the runs of an organization's workspaces execute by default. */
export enum ExecutionMode {
  /** On the platform's own workers. */
  REMOTE = 'remote',
  /** On the operator's machine; the platform only stores state. */
  LOCAL = 'local',
  /** On an agent pool of the organization (`defaultAgentPoolId` required). */
  AGENT = 'agent',
}

/**
 * Props of an organization (the spec's create/update body, camelCased). `removalPolicy` defaults to
 * RETAIN for an organization: deleting one deletes all its data.
 */
export interface OrganizationProps extends ResourceProps {
  /** Organization name: letters, numbers, `-` and `_`; it is the organization's id (a change renames in place). */
  readonly name: string;
  /** Admin email address. */
  readonly email: string;
  /**
   * Minutes of inactivity before a session ends.
   * @default 20160
   */
  readonly sessionTimeout?: number;
  /**
   * Minutes until a session expires.
   * @default 20160
   */
  readonly sessionRemember?: number;
  /**
   * How collaborators authenticate.
   * @default CollaboratorAuthPolicy.PASSWORD
   */
  readonly collaboratorAuthPolicy?: CollaboratorAuthPolicy;
  /**
   * Cost estimation for all workspaces (on the self-hosted edition it must also be enabled in site administration).
   * @default false
   */
  readonly costEstimationEnabled?: boolean;
  /**
   * Send VCS status updates for untriggered speculative plans (always false on the self-hosted edition).
   * Cannot be true together with `aggregatedCommitStatusEnabled`.
   * @default false
   */
  readonly sendPassingStatusesForUntriggeredSpeculativePlans?: boolean;
  /**
   * Aggregate VCS status updates for triggered workspaces.
   * @default true
   */
  readonly aggregatedCommitStatusEnabled?: boolean;
  /**
   * SAML only: name of the owners team.
   * @default - none
   */
  readonly ownersTeamSamlRoleId?: string;
  /**
   * Run health assessments on all compatible workspaces regardless of their own setting (hosted edition).
   * @default false
   */
  readonly assessmentsEnforced?: boolean;
  /**
   * Let workspace administrators delete workspaces that still manage resources.
   * @default false
   */
  readonly allowForceDeleteWorkspaces?: boolean;
  /**
   * Default execution mode of the organization's workspaces.
   * @default ExecutionMode.REMOTE
   */
  readonly defaultExecutionMode?: ExecutionMode;
  /**
   * ID of an agent pool of the organization (`apool-…`): required when `defaultExecutionMode` is AGENT,
   * refused otherwise.
   * @default - none
   */
  readonly defaultAgentPoolId?: string;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

const NAME_RE = /^[A-Za-z0-9_-]+$/;
const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * An organization of the platform. Retained by default when removed: deleting one deletes all its data.
 *
 * @example
 * new platform.Organization(stack, 'org', {
 *   name: 'acme',
 *   email: 'ops@acme.io',
 *   collaboratorAuthPolicy: platform.CollaboratorAuthPolicy.TWO_FACTOR_MANDATORY,
 * });
 */
export class Organization extends Resource {
  /** The organization name (its id on the platform), for other constructs to reference. */
  public readonly name: string;
  private readonly props: OrganizationProps;

  constructor(scope: Construct, id: string, props: OrganizationProps) {
    super(scope, id, 'platform.Organization', 'platform', props, props.provider, RemovalPolicy.RETAIN);
    this.props = props;
    this.name = props.name;
    check(typeof props.name === 'string' && NAME_RE.test(props.name), this, 'name',
      `"${props.name}" may contain only letters, numbers, '-' and '_'`);
    check(typeof props.email === 'string' && EMAIL_RE.test(props.email), this, 'email', `"${props.email}" is not an email address`);
    checkInt(this, 'sessionTimeout', props.sessionTimeout, 1);
    checkInt(this, 'sessionRemember', props.sessionRemember, 1);
    for (const f of ['costEstimationEnabled', 'sendPassingStatusesForUntriggeredSpeculativePlans', 'aggregatedCommitStatusEnabled',
      'assessmentsEnforced', 'allowForceDeleteWorkspaces'] as const) {
      check(props[f] === undefined || typeof props[f] === 'boolean', this, f, `must be true or false (got ${JSON.stringify(props[f])})`);
    }
    for (const f of ['ownersTeamSamlRoleId', 'defaultAgentPoolId'] as const) {
      check(props[f] === undefined || typeof props[f] === 'string', this, f, `must be a string (got ${JSON.stringify(props[f])})`);
    }
    checkOneOf(this, 'collaboratorAuthPolicy', props.collaboratorAuthPolicy, Object.values(CollaboratorAuthPolicy));
    checkOneOf(this, 'defaultExecutionMode', props.defaultExecutionMode, Object.values(ExecutionMode));
    const mode = props.defaultExecutionMode ?? ExecutionMode.REMOTE;
    if (mode === ExecutionMode.AGENT) {
      check(props.defaultAgentPoolId !== undefined && props.defaultAgentPoolId !== '', this, 'defaultAgentPoolId',
        'is required when defaultExecutionMode is "agent"');
    } else {
      check(props.defaultAgentPoolId === undefined, this, 'defaultAgentPoolId',
        `must not be given when defaultExecutionMode is "${mode}" (only with "agent")`);
    }
    check(!((props.aggregatedCommitStatusEnabled ?? true) && props.sendPassingStatusesForUntriggeredSpeculativePlans === true),
      this, 'sendPassingStatusesForUntriggeredSpeculativePlans',
      'cannot be true while aggregatedCommitStatusEnabled is true (set aggregatedCommitStatusEnabled: false)');
  }

  /** The organization external id (`org-…`), known once applied. */
  public get externalId(): any {
    return this._attrRef('externalId');
  }

  /** @internal */
  public _naturalKey(): string | undefined {
    return this.name;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      name: p.name,
      email: p.email,
      sessionTimeout: p.sessionTimeout ?? 20160,
      sessionRemember: p.sessionRemember ?? 20160,
      collaboratorAuthPolicy: p.collaboratorAuthPolicy ?? CollaboratorAuthPolicy.PASSWORD,
      costEstimationEnabled: p.costEstimationEnabled ?? false,
      sendPassingStatusesForUntriggeredSpeculativePlans: p.sendPassingStatusesForUntriggeredSpeculativePlans ?? false,
      aggregatedCommitStatusEnabled: p.aggregatedCommitStatusEnabled ?? true,
      ownersTeamSamlRoleId: p.ownersTeamSamlRoleId ?? null,
      assessmentsEnforced: p.assessmentsEnforced ?? false,
      allowForceDeleteWorkspaces: p.allowForceDeleteWorkspaces ?? false,
      defaultExecutionMode: p.defaultExecutionMode ?? ExecutionMode.REMOTE,
      defaultAgentPoolId: p.defaultAgentPoolId ?? null,
    };
  }
}
