import { seg } from '../client/path';
import { Document, kebabKeys, PlainResource, ResourceIdentifier, toPlain } from '../client/jsonapi';
import { PlatformTransport } from '../client/transport';

/** What a team's create and update bodies carry (go-tfe's `TeamCreateOptions`), camelCased. */
export interface TeamAttributes {
  readonly name: string;
  readonly visibility: string;
  /** The team's organization access: booleans by camelCased name (`manageWorkspaces`, …). */
  readonly organizationAccess: Record<string, boolean>;
}

export interface TeamDoc extends PlainResource {
  readonly name: string;
  readonly visibility: string;
  readonly organizationAccess?: Record<string, boolean>;
  readonly organization?: ResourceIdentifier;
}

/**
 * A custom access's permissions (go-tfe's `TeamAccess` attributes), camelCased: `runs`, `variables`, `stateVersions`,
 * `sentinelMocks`, `workspaceLocking`, `runTasks`. Editable only with access `custom`; otherwise the level's own.
 */
export type TeamAccessPermissionAttributes = Record<string, string | boolean>;

/** What a team's access to a workspace carries (go-tfe's `TeamAccess`). */
export interface TeamAccessDoc extends PlainResource {
  readonly access: string;
  readonly runs?: string;
  readonly variables?: string;
  readonly stateVersions?: string;
  readonly sentinelMocks?: string;
  readonly workspaceLocking?: boolean;
  readonly runTasks?: boolean;
  readonly team?: ResourceIdentifier;
  readonly workspace?: ResourceIdentifier;
}

const teamPath = (id: string) => `/teams/${seg(id)}`;
const accessPath = (id: string) => `/team-workspaces/${seg(id)}`;

function teamBody(a: TeamAttributes): unknown {
  return { data: { type: 'teams', attributes: { ...kebabKeys({ name: a.name, visibility: a.visibility }), 'organization-access': kebabKeys(a.organizationAccess) } } };
}

/** Teams (`/organizations/<org>/teams`, `/teams/<id>`) and their access to workspaces (`/team-workspaces`). */
export class TeamsClient {
  constructor(private readonly client: PlatformTransport) {}

  /** Every team of the organization; `name` narrows to teams of that exact name. */
  public iterate(organization: string, name?: string): AsyncGenerator<TeamDoc> {
    return this.client.pages(`/organizations/${seg(organization)}/teams`, { 'filter[names]': name }) as AsyncGenerator<TeamDoc>;
  }

  public show(id: string): Promise<TeamDoc | undefined> {
    return this.client.getOne(teamPath(id)) as Promise<TeamDoc | undefined>;
  }

  public async create(organization: string, attributes: TeamAttributes): Promise<TeamDoc> {
    const res = await this.client.request<Document>('POST', `/organizations/${seg(organization)}/teams`, { body: teamBody(attributes) });
    return toPlain(res.body.data as any) as TeamDoc;
  }

  public async update(id: string, attributes: TeamAttributes): Promise<TeamDoc> {
    const res = await this.client.request<Document>('PATCH', teamPath(id), { body: teamBody(attributes) });
    return toPlain(res.body.data as any) as TeamDoc;
  }

  /** Deletes; false when it was already absent. */
  public async destroy(id: string): Promise<boolean> {
    return (await this.client.request('DELETE', teamPath(id), { accept: [404] })).status !== 404;
  }

  /** Every team access of a workspace. */
  public iterateAccess(workspaceId: string): AsyncGenerator<TeamAccessDoc> {
    return this.client.pages('/team-workspaces', { 'filter[workspace][id]': workspaceId }) as AsyncGenerator<TeamAccessDoc>;
  }

  public showAccess(id: string): Promise<TeamAccessDoc | undefined> {
    return this.client.getOne(accessPath(id)) as Promise<TeamAccessDoc | undefined>;
  }

  /** Adds an access; `permissions` only for a `custom` one. */
  public async addAccess(teamId: string, workspaceId: string, access: string, permissions?: TeamAccessPermissionAttributes): Promise<TeamAccessDoc> {
    const body = { data: { type: 'team-workspaces', attributes: { access, ...kebabKeys(permissions ?? {}) },
      relationships: { team: { data: { type: 'teams', id: teamId } }, workspace: { data: { type: 'workspaces', id: workspaceId } } } } };
    const res = await this.client.request<Document>('POST', '/team-workspaces', { body });
    return toPlain(res.body.data as any) as TeamAccessDoc;
  }

  /** Changes the level; `permissions` only for a `custom` one. */
  public async updateAccess(id: string, access: string, permissions?: TeamAccessPermissionAttributes): Promise<TeamAccessDoc> {
    const attributes = { access, ...kebabKeys(permissions ?? {}) };
    const res = await this.client.request<Document>('PATCH', accessPath(id), { body: { data: { type: 'team-workspaces', id, attributes } } });
    return toPlain(res.body.data as any) as TeamAccessDoc;
  }

  /** Removes; false when it was already absent. */
  public async removeAccess(id: string): Promise<boolean> {
    return (await this.client.request('DELETE', accessPath(id), { accept: [404] })).status !== 404;
  }
}
