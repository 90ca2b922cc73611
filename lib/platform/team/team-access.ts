import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../references';
import { IWorkspace } from '../workspace/i-workspace';
import { ITeam } from './team';
import { TEAM_ACCESS } from './team-access.schema';

/** The fixed access levels of a team to a workspace. */
export enum TeamAccessLevel {
  /** Read runs, state versions and variables. */
  READ = 'read',
  /** READ, and queue plans. */
  PLAN = 'plan',
  /** PLAN, and apply runs, lock the workspace, write variables. */
  WRITE = 'write',
  /** WRITE, and change the workspace's settings and access, delete it. */
  ADMIN = 'admin',
}

/** Props of a team's access to a workspace. */
export interface TeamAccessProps extends ResourceProps {
  /** The team (a `Team`, or `Team.fromName`). A change replaces the access. */
  readonly team: ITeam;
  /** The workspace (a `Workspace`, or `Workspace.fromName`). A change replaces the access. */
  readonly workspace: IWorkspace;
  /** The access level; changed in place. */
  readonly access: TeamAccessLevel;
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
    const { team, workspace, ...rest } = props;
    return { ...rest, teamId: refKey(team, 'teamId'), workspaceId: refKey(workspace, 'workspaceId') };
  }
}
