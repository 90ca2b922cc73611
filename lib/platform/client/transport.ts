import { ApiError, apiMessagesOf } from '../../core/http/api-error';
import { HttpClient, HttpResponse } from '../../core/http/http-client';
import { Document, documentToPlain, PlainResource } from './jsonapi';
import { IncompleteListError, noSuchEndpoint, PageWalk } from './server-checks';

export const JSONAPI_TYPE = 'application/vnd.api+json';
export const API_PREFIX = '/api/v2';
export const MAX_PAGE_SIZE = 100;

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
 * Requests below `/api/v2` with JSON:API documents in and out, one resource, one page or every
 * page: what each resource family's client (`../organization/organization-client.ts`, …) sends through. The façade
 * `PlatformClient` is one, with the families hung off it.
 */
export class PlatformTransport {
  /** @param constructPath the construct the calls are made for, named in errors. */
  constructor(public readonly http: HttpClient, private readonly constructPath?: string) {}

  /** Sends one request below `/api/v2`; throws `ApiError` for a status >= 400 not in `accept`. */
  public async request<T = Document>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const accepted = options.accept ?? [];
    const res = await this.http.request<T>({
      method,
      path: `${API_PREFIX}${path}`,
      query: options.query,
      body: options.body,
      // A 404 is looked at here first: only a JSON:API error document is the API saying "absent".
      accept: [...accepted, 404],
      headers: { 'content-type': JSONAPI_TYPE, accept: JSONAPI_TYPE },
      constructPath: this.constructPath,
    });
    if (res.status !== 404) return res;
    const missing = noSuchEndpoint(this.http.address, method, `${API_PREFIX}${path}`, res.body, this.constructPath);
    if (missing) throw missing;
    if (accepted.includes(404)) return res;
    throw new ApiError(404, apiMessagesOf(res.body), method, `${API_PREFIX}${path}`, this.http.api, this.constructPath,
      'PLATFORM_TOKEN', { retryable: false });
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

  /**
   * Walks every page (`page[size]` up to 100), following `meta.pagination.next-page`. A server that
   * does not page as the API does (a page answered again, a walk past `total-pages`) stops the walk
   * with an `IncompleteListError` naming it: never a loop, never a list taken as complete.
   */
  public async *pages(path: string, query: RequestOptions['query'] = {}, pageSize = MAX_PAGE_SIZE): AsyncGenerator<PlainResource> {
    const size = Math.max(1, Math.min(MAX_PAGE_SIZE, pageSize));
    const walk = this.walk(path);
    let number: number | null = 1;
    while (number !== null) {
      const p: Page<PlainResource> = await this.page(path, query, { number, size });
      number = walk.next(number, p);
      yield* p.items;
    }
  }

  /** The checks of one walk through a list's pages (`pages()`, or a caller fetching pages itself). */
  public walk(path: string): PageWalk {
    return new PageWalk(this.http.address, `${API_PREFIX}${path}`);
  }
}

export { IncompleteListError };
