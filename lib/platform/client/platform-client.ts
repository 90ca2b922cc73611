import { HttpClient, HttpResponse, HttpStats } from '../../core/http/http-client';
import { Document, documentToPlain, PlainResource } from './jsonapi';
import { AgentPoolsClient } from './agent-pools';
import { NoCodeModulesClient } from './no-code-modules';
import { OAuthClientsClient } from './oauth-clients';
import { OrganizationsClient } from './organizations';
import { SelfHostedClient } from './self-hosted';

export const JSONAPI_TYPE = 'application/vnd.api+json';
export const API_PREFIX = '/api/v2';
/** The platform's published limit: 30 requests per second per user. */
export const PLATFORM_RATE_LIMIT = 30;
export const MAX_PAGE_SIZE = 100;

export interface PlatformClientOptions {
  /** The platform address without `/api/v2` (a trailing `/api/v2` is accepted and dropped). */
  readonly address: string;
  readonly token: string;
  /** Requests per second. @default 30 */
  readonly rateLimit?: number;
  readonly retries?: number;
  readonly backoffBaseMs?: number;
}

export interface RequestOptions {
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  readonly accept?: number[];
}

/** One page of a list. `pagination` is absent for the unpaginated form. */
export interface Page<T> {
  readonly items: T[];
  readonly pagination?: Record<string, number | null>;
  readonly links?: Record<string, string | null>;
}

/**
 * A typed client of the platform API: JSON:API documents in and out, paths below `/api/v2`.
 * Wraps an `HttpClient` that carries the `Authorization: Bearer` header; resource families
 * hang off it (`organizations`, …).
 */
export class PlatformClient {
  /** A client for `{address, token}` with the platform's rate limit. */
  public static create(options: PlatformClientOptions, stats?: HttpStats): PlatformClient {
    const http = new HttpClient({
      api: 'platform',
      baseUrl: options.address.replace(/\/+$/, '').replace(/\/api\/v2$/, ''),
      authHeaders: { authorization: `Bearer ${options.token}` },
      tokenVariable: 'PLATFORM_TOKEN',
      rateLimit: options.rateLimit ?? PLATFORM_RATE_LIMIT,
      retries: options.retries,
      backoffBaseMs: options.backoffBaseMs,
    }, stats);
    return new PlatformClient(http);
  }

  public readonly organizations: OrganizationsClient;
  public readonly oauthClients: OAuthClientsClient;
  public readonly agentPools: AgentPoolsClient;
  public readonly noCodeModules: NoCodeModulesClient;
  /** Module producers and the data retention policy (self-hosted edition). */
  public readonly selfHosted: SelfHostedClient;

  /** @param constructPath the construct the calls are made for, named in errors. */
  constructor(public readonly http: HttpClient, private readonly constructPath?: string) {
    this.organizations = new OrganizationsClient(this);
    this.oauthClients = new OAuthClientsClient(this);
    this.agentPools = new AgentPoolsClient(this);
    this.noCodeModules = new NoCodeModulesClient(this);
    this.selfHosted = new SelfHostedClient(this);
  }

  public close(): Promise<void> {
    return this.http.close();
  }

  /** Sends one request below `/api/v2`; throws `ApiError` for a status >= 400 not in `accept`. */
  public request<T = Document>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    return this.http.request<T>({
      method,
      path: `${API_PREFIX}${path}`,
      query: options.query,
      body: options.body,
      accept: options.accept,
      headers: { 'content-type': JSONAPI_TYPE, accept: JSONAPI_TYPE },
      constructPath: this.constructPath,
    });
  }

  /** One resource as a plain object; undefined on 404. */
  public async getOne(path: string, query?: RequestOptions['query']): Promise<PlainResource | undefined> {
    const res = await this.request('GET', path, { query, accept: [404] });
    if (res.status === 404) return undefined;
    return documentToPlain(res.body)[0];
  }

  /** One page; `page` undefined asks for the unpaginated form where the endpoint has one. */
  public async page(path: string, query: RequestOptions['query'] = {}, page?: { number: number; size: number }): Promise<Page<PlainResource>> {
    const q = { ...query, ...(page ? { 'page[number]': page.number, 'page[size]': page.size } : {}) };
    const res = await this.request('GET', path, { query: q });
    return { items: documentToPlain(res.body), pagination: res.body.meta?.pagination, links: res.body.links };
  }

  /** Walks every page (`page[size]` up to 100), following `meta.pagination.next-page`. */
  public async *pages(path: string, query: RequestOptions['query'] = {}, pageSize = MAX_PAGE_SIZE): AsyncGenerator<PlainResource> {
    const size = Math.max(1, Math.min(MAX_PAGE_SIZE, pageSize));
    let number: number | null = 1;
    while (number !== null) {
      const p: Page<PlainResource> = await this.page(path, query, { number, size });
      yield* p.items;
      const next = p.pagination?.['next-page'];
      number = typeof next === 'number' ? next : null;
    }
  }
}
