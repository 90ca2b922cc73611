import { Construct } from 'constructs';
import { ExistingObject } from '../../core/constructs/existing-object';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { IOrganization } from '../organization/organization';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { TEAM } from './team.schema';

/** A team: one this app manages, or one looked up with `Team.fromName`. */
export interface ITeam {
  /** The team id (`team-…`), known once read or applied. */
  readonly teamId: string;
  /** The team name. */
  readonly teamName: string;
}

/** Who sees a team. */
export enum TeamVisibility {
  /** Only its members and those who may see secret teams. */
  SECRET = 'secret',
  /** Every member of the organization. */
  ORGANIZATION = 'organization',
}

/** What a team may do across its organization (the platform's `organization-access`); each is false unless granted. */
export interface TeamOrganizationAccess {
  /**
   * May manage policies (and policy sets).
   * @default false
   */
  readonly managePolicies?: boolean;
  /**
   * May override failed policy checks.
   * @default false
   */
  readonly managePolicyOverrides?: boolean;
  /**
   * May create and administer every workspace.
   * @default false
   */
  readonly manageWorkspaces?: boolean;
  /**
   * May manage VCS providers and SSH keys.
   * @default false
   */
  readonly manageVcsSettings?: boolean;
  /**
   * May manage the private registry's providers.
   * @default false
   */
  readonly manageProviders?: boolean;
  /**
   * May manage the private registry's modules.
   * @default false
   */
  readonly manageModules?: boolean;
  /**
   * May manage run tasks.
   * @default false
   */
  readonly manageRunTasks?: boolean;
  /**
   * May create and administer every project.
   * @default false
   */
  readonly manageProjects?: boolean;
  /**
   * May read every workspace.
   * @default false
   */
  readonly readWorkspaces?: boolean;
  /**
   * May read every project.
   * @default false
   */
  readonly readProjects?: boolean;
  /**
   * May add and remove users of the organization's teams.
   * @default false
   */
  readonly manageMembership?: boolean;
  /**
   * May create, update and delete teams.
   * @default false
   */
  readonly manageTeams?: boolean;
  /**
   * May change the organization access of teams.
   * @default false
   */
  readonly manageOrganizationAccess?: boolean;
  /**
   * May see secret teams.
   * @default false
   */
  readonly accessSecretTeams?: boolean;
  /**
   * May manage agent pools.
   * @default false
   */
  readonly manageAgentPools?: boolean;
}

/** Props of a team. */
export interface TeamProps extends ResourceProps {
  /** The organization (an `Organization`, or `Organization.fromName`). A change replaces the team. */
  readonly organization: IOrganization;
  /** Team name: letters, numbers, `-` and `_`; unique in the organization. Renamed in place. */
  readonly name: string;
  /**
   * Who sees the team.
   * @default TeamVisibility.SECRET
   */
  readonly visibility?: TeamVisibility;
  /**
   * What the team may do across the organization.
   * @default - nothing (every access false)
   */
  readonly organizationAccess?: TeamOrganizationAccess;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * A team of an organization, with its organization access (its members are managed elsewhere).
 *
 * @example
 * const org = platform.Organization.fromName(stack, 'acme', 'acme');
 * new platform.Team(stack, 'ops', { organization: org, name: 'ops', organizationAccess: { manageWorkspaces: true, readProjects: true } });
 */
export class Team extends Resource implements ITeam {
  /**
   * A team that exists outside this app, by its organization and name (unique in the organization):
   * read at plan time (the plan fails, naming this construct, when it does not exist), never changed nor deleted.
   * @param provider the platform provider to read it with (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, organization: IOrganization, name: string, provider?: PlatformProvider): ITeam {
    return new ExistingTeam(scope, id, organization, name, provider);
  }

  /** The team name. */
  public readonly teamName: string;

  constructor(scope: Construct, id: string, props: TeamProps) {
    super(scope, id, TEAM.kind, TEAM.api, props, props.provider);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
    this.teamName = props.name;
  }

  /** The team id (`team-…`), known once applied. */
  public get teamId(): string {
    return this._attrString('id');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return TEAM;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    return { ...props, organization: refKey(props.organization, 'organizationName') };
  }
}

/** A team looked up by organization and name (`Team.fromName`): the import id `<organization>/<name>`. */
class ExistingTeam extends ExistingObject implements ITeam {
  public readonly teamName: string;

  constructor(scope: Construct, id: string, organization: IOrganization, name: string, provider?: PlatformProvider) {
    super(scope, id, TEAM.kind, TEAM.api, `${organization.organizationName}/${name}`, 'organization and name', provider);
    this.teamName = name;
  }

  public get teamId(): string {
    return this._attrString('id');
  }
}
