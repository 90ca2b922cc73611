import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { reject } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { IWorkspace } from '../workspace/i-workspace';
import { ITeam } from './team';
import { TEAM_ACCESS } from './team-access.schema';

/** The access levels of a team to a workspace: four fixed ones, and CUSTOM with its own permissions. */
export enum TeamAccessLevel {
  /** Read runs, state versions and variables. */
  READ = 'read',
  /** READ, and queue plans. */
  PLAN = 'plan',
  /** PLAN, and apply runs, lock the workspace, write variables. */
  WRITE = 'write',
  /** WRITE, and change the workspace's settings and access, delete it. */
  ADMIN = 'admin',
  /** The permissions given in `permissions`. */
  CUSTOM = 'custom',
}

/** What a team with custom access may do with a workspace's runs. */
export enum TeamAccessRunsPermission {
  /** Read runs. */
  READ = 'read',
  /** Read runs and queue plans. */
  PLAN = 'plan',
  /** Read runs, queue plans and apply them. */
  APPLY = 'apply',
}

/** What a team with custom access may do with a workspace's variables. */
export enum TeamAccessVariablesPermission {
  /** No access. */
  NONE = 'none',
  /** Read them. */
  READ = 'read',
  /** Read and write them. */
  WRITE = 'write',
}

/** What a team with custom access may do with a workspace's state versions. */
export enum TeamAccessStateVersionsPermission {
  /** No access. */
  NONE = 'none',
  /** Read the outputs of the current state only. */
  READ_OUTPUTS = 'read-outputs',
  /** Read state versions. */
  READ = 'read',
  /** Read and create state versions. */
  WRITE = 'write',
}

/** What a team with custom access may do with a workspace's Sentinel mocks. */
export enum TeamAccessSentinelMocksPermission {
  /** No access. */
  NONE = 'none',
  /** Download them. */
  READ = 'read',
}

/** The permissions of a custom team access (the platform's `team-workspaces` attributes; the Terraform provider's `permissions` block). */
export interface TeamAccessPermissions {
  /**
   * Runs.
   * @default TeamAccessRunsPermission.READ
   */
  readonly runs?: TeamAccessRunsPermission;
  /**
   * Variables.
   * @default TeamAccessVariablesPermission.NONE
   */
  readonly variables?: TeamAccessVariablesPermission;
  /**
   * State versions.
   * @default TeamAccessStateVersionsPermission.NONE
   */
  readonly stateVersions?: TeamAccessStateVersionsPermission;
  /**
   * Sentinel mocks.
   * @default TeamAccessSentinelMocksPermission.NONE
   */
  readonly sentinelMocks?: TeamAccessSentinelMocksPermission;
  /**
   * May lock and unlock the workspace.
   * @default false
   */
  readonly workspaceLocking?: boolean;
  /**
   * May manage the workspace's run tasks.
   * @default false
   */
  readonly runTasks?: boolean;
}

/** Props of a team's access to a workspace. */
export interface TeamAccessProps extends ResourceProps {
  /** The team (a `Team`, or `Team.fromName`). A change replaces the access. */
  readonly team: ITeam;
  /** The workspace (a `Workspace`, or `Workspace.fromName`). A change replaces the access. */
  readonly workspace: IWorkspace;
  /**
   * The access level; changed in place. Give `permissions` (and CUSTOM, or nothing) for a custom access.
   * @default - CUSTOM when `permissions` are given (one of the two is required)
   */
  readonly access?: TeamAccessLevel;
  /**
   * The permissions of a CUSTOM access, changed in place; each not given is its default. A fixed level's
   * permissions are the platform's (implied by the level), so these are refused with one.
   * @default - the defaults of each permission with CUSTOM; the level's own with a fixed level
   */
  readonly permissions?: TeamAccessPermissions;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * A team's access to a workspace (the platform's `team-workspaces`): one per team and workspace.
 *
 * @example
 * const org = platform.Organization.fromName(stack, 'acme', 'acme');
 * const ops = new platform.Team(stack, 'ops', { organization: org, name: 'ops' });
 * const web = new platform.Workspace(stack, 'web', { organization: org, name: 'web' });
 * new platform.TeamAccess(stack, 'ops-web', { team: ops, workspace: web, access: platform.TeamAccessLevel.WRITE });
 * // A custom access: its permissions (each not given at its default).
 * new platform.TeamAccess(stack, 'ops-api', {
 *   team: ops, workspace: platform.Workspace.fromName(stack, 'api', org, 'api'),
 *   permissions: { runs: platform.TeamAccessRunsPermission.PLAN, variables: platform.TeamAccessVariablesPermission.READ },
 * });
 */
export class TeamAccess extends Resource {
  constructor(scope: Construct, id: string, props: TeamAccessProps) {
    super(scope, id, TEAM_ACCESS.kind, TEAM_ACCESS.api, props, props.provider);
    useReference(this, 'team', props.team, 'teamId', 'a team (a Team, or Team.fromName)');
    useReference(this, 'workspace', props.workspace, 'workspaceId', 'a workspace (a Workspace, or Workspace.fromName)');
  }

  /** The access id (`tws-…`), known once applied. */
  public get teamAccessId(): string {
    return this._attrString('id');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return TEAM_ACCESS;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    const { team, workspace, permissions, ...rest } = props;
    if (rest.access === undefined && permissions === undefined) reject(this, 'access', 'is required (or permissions, for a custom access)');
    if (permissions !== undefined && rest.access !== undefined && rest.access !== TeamAccessLevel.CUSTOM) {
      reject(this, 'permissions', `may be given only with a custom access (access is "${String(rest.access)}", whose permissions the platform implies)`);
    }
    const isStruct = permissions !== null && typeof permissions === 'object' && !Array.isArray(permissions);
    if (permissions !== undefined && !isStruct) reject(this, 'permissions', 'must be a struct of permissions (TeamAccessPermissions)');
    // The permissions are flat attributes of the body beside `access`.
    const flat = isStruct ? permissions : {};
    return {
      ...rest, ...flat, access: rest.access ?? (permissions !== undefined ? TeamAccessLevel.CUSTOM : undefined),
      teamId: refKey(team, 'teamId'), workspaceId: refKey(workspace, 'workspaceId'),
    };
  }
}
