import { seg } from '../client/path';
import { Document, PlainResource, ResourceIdentifier, toDocument, toPlain } from '../client/jsonapi';
import { PlatformTransport } from '../client/transport';

/**
 * What a workspace's create and update bodies carry (go-tfe's `WorkspaceCreateOptions`), camelCased;
 * the Terraform version is `engineVersion` as the spec names it (`engine-version`).
 */
export interface WorkspaceAttributes {
  readonly name?: string;
  readonly description?: string;
  readonly executionMode?: string;
  readonly agentPoolId?: string | null;
  readonly engineVersion?: string;
  readonly workingDirectory?: string | null;
  readonly autoApply?: boolean;
  /** Only on create: tags are added and removed by their own endpoints afterwards. */
  readonly tagNames?: string[];
  /** The project id (`prj-…`), sent as the `project` relationship. */
  readonly projectId?: string;
}

/** A workspace document (camelCase attributes). */
export interface WorkspaceDoc extends PlainResource {
  readonly name: string;
  readonly description: string | null;
  readonly executionMode: string;
  readonly engineVersion?: string;
  readonly terraformVersion?: string;
  readonly workingDirectory: string | null;
  readonly autoApply: boolean;
  readonly tagNames: string[];
  readonly createdAt: string;
  readonly project?: ResourceIdentifier | null;
  readonly agentPool?: ResourceIdentifier | null;
  readonly organization?: ResourceIdentifier;
}

const wsPath = (id: string) => `/workspaces/${seg(id)}`;

/**
 * The version goes under both names: the spec's `engine-version`, and `terraform-version`, which the
 * real platform and a second server of the API (OTF) read; each server ignores the name it does not know.
 */
function workspaceBody(a: WorkspaceAttributes): unknown {
  const { projectId, ...attributes } = a;
  const versioned = a.engineVersion === undefined ? attributes : { ...attributes, terraformVersion: a.engineVersion };
  return toDocument('workspaces', versioned, projectId ? { project: { id: projectId, type: 'projects' } } : undefined);
}

function tagsBody(tags: readonly string[]): unknown {
  return { data: tags.map((name) => ({ type: 'tags', attributes: { name } })) };
}

/** Workspaces (the real platform's `/organizations/<org>/workspaces`, `/workspaces/<id>` and its tags). */
export class WorkspacesClient {
  constructor(private readonly client: PlatformTransport) {}

  /** Every workspace of the organization; `search` narrows to names containing it. */
  public iterate(organization: string, search?: string): AsyncGenerator<WorkspaceDoc> {
    return this.client.pages(`/organizations/${seg(organization)}/workspaces`, { 'search[name]': search }) as AsyncGenerator<WorkspaceDoc>;
  }

  /** undefined when absent. */
  public show(id: string): Promise<WorkspaceDoc | undefined> {
    return this.client.getOne(wsPath(id)) as Promise<WorkspaceDoc | undefined>;
  }

  /** A workspace by organization and name; undefined when absent. */
  public showByName(organization: string, name: string): Promise<WorkspaceDoc | undefined> {
    return this.client.getOne(`/organizations/${seg(organization)}/workspaces/${seg(name)}`) as Promise<WorkspaceDoc | undefined>;
  }

  public async create(organization: string, attributes: WorkspaceAttributes & { name: string }): Promise<WorkspaceDoc> {
    const res = await this.client.request<Document>('POST', `/organizations/${seg(organization)}/workspaces`, { body: workspaceBody(attributes) });
    return toPlain(res.body.data as any) as WorkspaceDoc;
  }

  public async update(id: string, attributes: WorkspaceAttributes): Promise<WorkspaceDoc> {
    const res = await this.client.request<Document>('PATCH', wsPath(id), { body: workspaceBody(attributes) });
    return toPlain(res.body.data as any) as WorkspaceDoc;
  }

  public async addTags(id: string, tags: readonly string[]): Promise<void> {
    await this.client.request('POST', `${wsPath(id)}/relationships/tags`, { body: tagsBody(tags) });
  }

  public async removeTags(id: string, tags: readonly string[]): Promise<void> {
    await this.client.request('DELETE', `${wsPath(id)}/relationships/tags`, { body: tagsBody(tags) });
  }

  /** Deletes; false when it was already absent. */
  public async destroy(id: string): Promise<boolean> {
    return (await this.client.request('DELETE', wsPath(id), { accept: [404] })).status !== 404;
  }
}
