import { seg } from '../client/path';
import { Document, PlainResource, toDocument, toPlain } from '../client/jsonapi';
import { PlatformTransport } from '../client/transport';

/** What a project's create and update bodies carry (go-tfe's `ProjectCreateOptions`/`ProjectUpdateOptions`). */
export interface ProjectAttributes {
  readonly name: string;
  readonly description?: string;
}

/** A project document (camelCase attributes). */
export interface Project extends PlainResource {
  readonly name: string;
  readonly description?: string;
  readonly organization?: { id: string };
}

const projectPath = (id: string) => `/projects/${seg(id)}`;

/** Projects of an organization (the real platform's `/organizations/<org>/projects` and `/projects/<id>`). */
export class ProjectsClient {
  constructor(private readonly client: PlatformTransport) {}

  /** Every project of the organization; `name` narrows the list to projects of that exact name. */
  public iterate(organization: string, name?: string): AsyncGenerator<Project> {
    return this.client.pages(`/organizations/${seg(organization)}/projects`, { 'filter[names]': name }) as AsyncGenerator<Project>;
  }

  /** undefined when absent. */
  public show(id: string): Promise<Project | undefined> {
    return this.client.getOne(projectPath(id)) as Promise<Project | undefined>;
  }

  public async create(organization: string, attributes: ProjectAttributes): Promise<Project> {
    const res = await this.client.request<Document>('POST', `/organizations/${seg(organization)}/projects`, { body: toDocument('projects', { ...attributes }) });
    return toPlain(res.body.data as any) as Project;
  }

  public async update(id: string, attributes: ProjectAttributes): Promise<Project> {
    const res = await this.client.request<Document>('PATCH', projectPath(id), { body: toDocument('projects', { ...attributes }) });
    return toPlain(res.body.data as any) as Project;
  }

  /** Deletes; false when it was already absent. */
  public async destroy(id: string): Promise<boolean> {
    return (await this.client.request('DELETE', projectPath(id), { accept: [404] })).status !== 404;
  }
}
