import { seg } from '../client/path';
import { Document, PlainResource, ResourceIdentifier, toDocument, toPlain } from '../client/jsonapi';
import { Page, PlatformTransport } from '../client/transport';

/** The provider identifiers: the real platform's (`github`, …) and the spec's anonymised stand-ins (`provider_a`, …). */
export type ServiceProvider = 'github' | 'github_enterprise' | 'gitlab_hosted' | 'gitlab_community_edition' | 'gitlab_enterprise_edition'
  | 'ado_server' | 'provider_a' | 'provider_a_enterprise' | 'provider_b_hosted' | 'provider_b_community_edition'
  | 'provider_b_enterprise_edition' | 'provider_c_server';

/** Attributes of an OAuth client create (camelCase of the spec's body table). */
export interface OAuthClientCreate {
  readonly serviceProvider: ServiceProvider;
  readonly name?: string | null;
  /** Optional: the platform's own Go client sends none with a token string. */
  readonly key?: string | null;
  readonly httpUrl: string;
  readonly apiUrl: string;
  /** The token string given by the VCS provider (request-only: never answered). */
  readonly oauthTokenString: string;
  /** Required for `ado_server` / `provider_c_server` (request-only). */
  readonly privateKey?: string;
  /** OAuth client secret, or the application link's SSH private key of a data-center edition (request-only). */
  readonly secret?: string;
  /** Required with `secret` for a data-center edition. */
  readonly rsaPublicKey?: string;
  /** @default true */
  readonly organizationScoped?: boolean;
  /** Project ids (`prj-…`) the client is available to. */
  readonly projects?: string[];
}

/** What an update accepts; every field optional (default: the previous value). */
export interface OAuthClientUpdate {
  /** null resets the display name to the provider's. */
  readonly name?: string | null;
  readonly key?: string | null;
  readonly secret?: string | null;
  readonly rsaPublicKey?: string | null;
  readonly organizationScoped?: boolean;
  /** The full list of project ids; [] clears every assignment. */
  readonly projects?: string[];
}

/** An OAuth client as read. */
export interface OAuthClient extends PlainResource {
  readonly createdAt: string;
  readonly callbackUrl: string;
  readonly connectPath: string;
  readonly serviceProvider: ServiceProvider;
  readonly serviceProviderDisplayName: string;
  readonly name: string | null;
  readonly httpUrl: string;
  readonly apiUrl: string;
  readonly key: string | null;
  readonly rsaPublicKey: string | null;
  readonly organizationScoped: boolean;
  readonly organization: ResourceIdentifier;
  /** Project identifiers, or the projects themselves when included. */
  readonly projects: PlainResource[];
  readonly oauthTokens: PlainResource[];
}

/** Related resources `show` can include. */
export type OAuthClientInclude = 'oauth_tokens' | 'projects';

const path = (id: string) => `/oauth-clients/${seg(id)}`;
const projectIds = (ids: readonly string[]): ResourceIdentifier[] => ids.map((id) => ({ id, type: 'projects' }));

/** OAuth clients (VCS connections) of organizations. */
export class OAuthClientsClient {
  constructor(private readonly client: PlatformTransport) {}

  /** One page; without `page` the unpaginated list of every client of the organization. */
  public list(organization: string, page?: { number: number; size: number }): Promise<Page<OAuthClient>> {
    return this.client.page(`/organizations/${seg(organization)}/oauth-clients`, {}, page) as Promise<Page<OAuthClient>>;
  }

  /** Every client, page by page. */
  public iterate(organization: string, pageSize?: number): AsyncGenerator<OAuthClient> {
    return this.client.pages(`/organizations/${seg(organization)}/oauth-clients`, {}, pageSize) as AsyncGenerator<OAuthClient>;
  }

  /** undefined when absent or not visible. `include` resolves tokens and projects into the result. */
  public async show(id: string, include: OAuthClientInclude[] = []): Promise<OAuthClient | undefined> {
    return this.client.getOne(path(id), include.length ? { include: include.join(',') } : undefined) as Promise<OAuthClient | undefined>;
  }

  public async create(organization: string, attributes: OAuthClientCreate): Promise<OAuthClient> {
    const { projects, ...attrs } = attributes;
    const res = await this.client.request<Document>('POST', `/organizations/${seg(organization)}/oauth-clients`, {
      body: toDocument('oauth-clients', { ...attrs }, projects ? { projects: projectIds(projects) } : undefined),
    });
    return toPlain(res.body.data as any, res.body.included) as OAuthClient;
  }

  public async update(id: string, attributes: OAuthClientUpdate): Promise<OAuthClient> {
    const { projects, ...attrs } = attributes;
    const res = await this.client.request<Document>('PATCH', path(id), {
      body: toDocument('oauth-clients', { ...attrs }, projects ? { projects: projectIds(projects) } : undefined, id),
    });
    return toPlain(res.body.data as any, res.body.included) as OAuthClient;
  }

  /** Destroys; false when it was already absent. Every workspace using the client is unlinked from its repository. */
  public async destroy(id: string): Promise<boolean> {
    return (await this.client.request('DELETE', path(id), { accept: [404] })).status !== 404;
  }

  /** Makes the client available to more projects (422 when one does not exist). */
  public async attachProjects(id: string, projects: readonly string[]): Promise<void> {
    await this.client.request('POST', `${path(id)}/relationships/projects`, { body: { data: projectIds(projects) } });
  }

  public async detachProjects(id: string, projects: readonly string[]): Promise<void> {
    await this.client.request('DELETE', `${path(id)}/relationships/projects`, { body: { data: projectIds(projects) } });
  }
}
