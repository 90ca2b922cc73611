import { Construct } from 'constructs';
import { RemovalPolicy } from '../../core/constructs/removal-policy';
import { ExistingObject } from '../../core/constructs/existing-object';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { PlatformProvider } from '../provider';
import { ORGANIZATION } from './organization.schema';

/** An organization of the platform: one this app manages, or one looked up with `Organization.fromName`. */
export interface IOrganization {
  /** The organization name (its id on the platform). */
  readonly organizationName: string;
  /** The organization external id (`org-…`), known once it exists. */
  readonly organizationExternalId: string;
}

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
   * ID of an agent pool of the organization (`apool-…`, e.g. `pool.agentPoolId` of an `AgentPool.fromName`):
   * required when `defaultExecutionMode` is AGENT, refused otherwise. A pool managed in the same app
   * depends on its organization, so the organization cannot name it in the same apply: create the pool
   * first, then set the agent mode with the pool looked up (or its id).
   * @default - none
   */
  readonly defaultAgentPoolId?: string;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

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
export class Organization extends Resource implements IOrganization {
  /**
   * An organization that exists outside this app, by name: read at plan time (the plan fails, naming
   * this construct, when it does not exist), never changed nor deleted.
   * @param provider the platform provider to read it with (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, name: string, provider?: PlatformProvider): IOrganization {
    return new ExistingOrganization(scope, id, name, provider);
  }

  /** The organization name (its id on the platform), for other constructs to reference. */
  public readonly name: string;
  /** The organization name (its id on the platform). */
  public readonly organizationName: string;

  constructor(scope: Construct, id: string, props: OrganizationProps) {
    super(scope, id, ORGANIZATION.kind, ORGANIZATION.api, props, props.provider, RemovalPolicy.RETAIN);
    this.name = props.name;
    this.organizationName = props.name;
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
  public get externalId(): string {
    return this._attrString('externalId');
  }

  /** The organization external id (`org-…`), known once applied. */
  public get organizationExternalId(): string {
    return this.externalId;
  }

  /** @internal */
  protected _schema(): KindSchema {
    return ORGANIZATION;
  }
}

/** An organization looked up by name (`Organization.fromName`). */
class ExistingOrganization extends ExistingObject implements IOrganization {
  public readonly organizationName: string;

  constructor(scope: Construct, id: string, name: string, provider?: PlatformProvider) {
    super(scope, id, ORGANIZATION.kind, ORGANIZATION.api, name, 'name', provider);
    this.organizationName = name;
  }

  public get organizationExternalId(): string {
    return this._attrString('externalId');
  }
}
