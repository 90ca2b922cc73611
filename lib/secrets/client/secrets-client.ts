import { ApiError } from '../../core/http/api-error';
import { HttpClient, HttpClientOptions, HttpResponse } from '../../core/http/http-client';

/** How to reach a secrets service. */
export interface SecretsConnection {
  /** Address without the `/v1` prefix, e.g. `http://127.0.0.1:8200`. */
  readonly address: string;
  readonly token: string;
  /** Further HttpClient options (rate limit, retries, …). */
  readonly options?: Partial<Omit<HttpClientOptions, 'baseUrl' | 'authHeaders' | 'api'>>;
}

/** The standard envelope of the secrets service. */
export interface SecretsEnvelope<T> {
  readonly request_id: string;
  readonly lease_id: string;
  readonly renewable: boolean;
  readonly lease_duration: number;
  readonly data: T;
  readonly wrap_info: unknown;
  readonly warnings: string[] | null;
  readonly auth: unknown;
}

export interface SecretsRequest {
  readonly method: string;
  /** Path below `/v1`, already percent-encoded where needed (use `encodePath`). */
  readonly path: string;
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly accept?: number[];
  readonly constructPath?: string;
}

/**
 * The secrets service API over an `HttpClient` whose base URL is the service address (without
 * `/v1`) and whose auth header is `X-Secrets-Token`. Engine clients (`KvClient`, …) build on it.
 */
export class SecretsClient {
  /** A client authenticated with a token. */
  public static connect(c: SecretsConnection): SecretsClient {
    return new SecretsClient(new HttpClient({
      tokenVariable: 'SECRETS_TOKEN',
      ...(c.options ?? {}),
      api: 'secrets',
      baseUrl: c.address,
      authHeaders: { 'X-Secrets-Token': c.token },
    }));
  }

  constructor(public readonly http: HttpClient) {}

  /** Sends a request below `/v1`. */
  public async request<T = unknown>(r: SecretsRequest): Promise<HttpResponse<T>> {
    try {
      return await this.http.request<T>({ ...r, path: `/v1/${r.path.replace(/^\/+/, '')}` });
    } catch (e) {
      throw e instanceof ApiError && e.status === 403 ? namingCapability(e, r) : e;
    }
  }

  /**
   * Lists a path: the names below it (folders end with `/`); empty when there are none (404).
   * Sent as `GET ?list=true`, the service's equivalent of `LIST` (as its own Go client does),
   * because many HTTP stacks (Node's among them) refuse the non-standard `LIST` method.
   */
  public async list(path: string, constructPath?: string): Promise<string[]> {
    const res = await this.request<SecretsEnvelope<{ keys: string[] }>>({
      method: 'GET', path, query: { list: true }, accept: [404], constructPath,
    });
    return res.status === 404 ? [] : res.body.data.keys;
  }

  public close(): Promise<void> {
    return this.http.close();
  }
}

/**
 * The capability a request needs on the secrets service, as its ACL decides (the service's 403
 * says only "permission denied"): a write needs `create` where nothing exists yet, else `update`.
 */
export function neededCapability(method: string, query?: SecretsRequest['query']): string {
  const m = method.toUpperCase();
  if (m === 'LIST' || (m === 'GET' && query?.list !== undefined && String(query.list) === 'true')) return 'list';
  return ({ GET: 'read', HEAD: 'read', DELETE: 'delete', PATCH: 'patch' } as Record<string, string>)[m] ?? 'create" or "update';
}

/** A 403 that names the policy path and the capability the token lacks. */
function namingCapability(e: ApiError, r: SecretsRequest): ApiError {
  const path = r.path.replace(/^\/+/, '').split('?')[0];
  let decoded = path;
  try { decoded = decodeURIComponent(path); } catch { /* keep it encoded */ }
  const hint = `the token needs "${neededCapability(r.method, r.query)}" on "${decoded}" (\`converge policy\` prints what a stack needs)`;
  return new ApiError(e.status, [...e.apiMessages, hint], e.method, e.path, e.api, e.constructPath, e.tokenVariable);
}
