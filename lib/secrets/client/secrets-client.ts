import { ApiError } from '../../core/http/api-error';
import { HttpClient, HttpClientOptions, HttpResponse } from '../../core/http/http-client';
import { tokenHeaderValues } from '../../core/http/api-profile';
import { SECRETS_API_PROFILE } from '../api-profile';
import { SecretsTokenHeader } from '../token-header';
import { PREFLIGHT_PATH } from '../shared/policy-paths';
import { capabilitiesSelf } from '../preflight';

/** How to reach a secrets service. */
export interface SecretsConnection {
  /** Address without the `/v1` prefix, e.g. `http://127.0.0.1:8200`. */
  readonly address: string;
  readonly token: string;
  /** The header carrying the token (a real OpenBao reads `X-Vault-Token` or `Authorization`). @default X-Secrets-Token */
  readonly tokenHeader?: SecretsTokenHeader;
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
      api: SECRETS_API_PROFILE.api,
      rules: SECRETS_API_PROFILE,
      baseUrl: c.address,
      authHeaders: tokenHeaderValues(c.tokenHeader ?? SECRETS_API_PROFILE.tokenHeaders.names[0], c.token),
    }));
  }

  constructor(public readonly http: HttpClient) {}

  /** Sends a request below `/v1`. */
  public async request<T = unknown>(r: SecretsRequest): Promise<HttpResponse<T>> {
    let res: HttpResponse<T>;
    try {
      res = await this.http.request<T>({ ...r, path: `/v1/${r.path.replace(/^\/+/, '')}` });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const clean = unwrapped(e);
      throw clean.status === 403 ? await this.namingCapability(clean, r) : clean;
    }
    if (res.status >= 300 && res.status < 400) throw redirected(res, r);
    return res;
  }

  /**
   * A 403 that names the policy path and the capability the token lacks. The token itself is blamed
   * only when the service says it is invalid: a least-privilege token may well be refused
   * `auth/token/lookup-self` (only the `default` policy grants it). The service is asked what the token
   * holds on the path (`sys/capabilities-self`); an answer proves the token valid, and says what it holds.
   */
  private async namingCapability(e: ApiError, r: SecretsRequest): Promise<ApiError> {
    const path = r.path.replace(/^\/+/, '').split('?')[0];
    let decoded = path;
    try { decoded = decodeURIComponent(path); } catch { /* keep it encoded */ }
    const needed = `the token needs "${neededCapability(r.method, r.query)}" on "${decoded}"`;
    const hints = [`${needed} (\`converge policy\` prints what a stack needs)`];
    if (decoded !== 'auth/token/lookup-self' && decoded !== PREFLIGHT_PATH) {
      const verdict = await this.tokenVerdict(e, decoded);
      const sent = this.http.authHeaderNames.includes('authorization') ? 'Authorization: Bearer' : headerName(this.http.authHeaderNames[0] ?? 'x-secrets-token');
      const header = `converge sent ${sent}; a real OpenBao or Vault reads X-Vault-Token or Authorization: Bearer: set ${SECRETS_API_PROFILE.tokenHeaders.variable} or the secrets provider's tokenHeader`;
      if (verdict.kind === 'holds') {
        hints[0] = `${needed}; it holds ${JSON.stringify(verdict.holds.filter((c) => c !== 'deny'))} there (\`converge policy\` prints what a stack needs)`;
      } else if (verdict.kind === 'invalid') {
        hints.push(`the service says the token is invalid: it is expired or revoked, or it was sent in a header the service does not read (${header})`);
      } else if (verdict.kind === 'unknown') {
        hints.push(`the service refuses ${PREFLIGHT_PATH} and auth/token/lookup-self too, so converge cannot tell a missing capability from a token ` +
          `the service does not accept: if the token holds either (the default policy grants both), it is invalid or expired, or it was sent in a header ` +
          `the service does not read (${header})`);
      }
    }
    return new ApiError(e.status, [...e.apiMessages, ...hints], e.method, e.path, e.api, e.constructPath, e.tokenVariable);
  }

  /**
   * What the service says of the token after a 403 on a path: "invalid token" in its messages (Vault's
   * wording), what it holds on the path (`sys/capabilities-self`: the token is valid), valid (its own
   * `auth/token/lookup-self` answers), or unknown (both refused, as for a token the service does not accept).
   */
  private async tokenVerdict(e: ApiError, path: string): Promise<{ kind: 'holds'; holds: string[] } | { kind: 'valid' | 'invalid' | 'unknown' }> {
    if (e.apiMessages.some((m) => /invalid token/i.test(m))) return { kind: 'invalid' };
    const held = await capabilitiesSelf(this.http, [path]).catch(() => 'unanswered');
    if (typeof held !== 'string') return { kind: 'holds', holds: held.get(path) ?? [] };
    if (/invalid token/i.test(held)) return { kind: 'invalid' };
    return (await this.tokenAccepted()) ? { kind: 'valid' } : { kind: 'unknown' };
  }

  /** Whether the service accepts the token (its own `auth/token/lookup-self` answers), asked once per client. */
  private tokenAccepted(): Promise<boolean> {
    let probe = TOKEN_PROBES.get(this.http);
    if (!probe) {
      probe = this.http.request({ method: 'GET', path: '/v1/auth/token/lookup-self', accept: [403] })
        .then((res) => res.status !== 403, () => true);
      TOKEN_PROBES.set(this.http, probe);
    }
    return probe;
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
 * A redirect is no answer: a read so answered did not say the object is absent (a create planned
 * over it could replace a secret), and converge does not follow it (the token would go to an
 * address nobody configured). An OpenBao standby redirects to the active node this way.
 */
function redirected(res: HttpResponse<unknown>, r: SecretsRequest): ApiError {
  const raw = res.headers.location;
  const location = Array.isArray(raw) ? raw[0] : raw;
  // Where it points, without a query or credentials (a redirect may carry either).
  let to = 'no Location';
  if (location) {
    try {
      const u = new URL(location, 'http://relative.invalid');
      to = u.host === 'relative.invalid' ? u.pathname : `${u.protocol}//${u.host}${u.pathname}`;
    } catch {
      to = 'an unreadable Location';
    }
  }
  return new ApiError(res.status, [`the service answered with a redirect (${res.status}) to ${to}`], r.method.toUpperCase(),
    `/v1/${r.path.replace(/^\/+/, '').split('?')[0]}`, 'secrets', r.constructPath, undefined, {
      retryable: false,
      hint: 'converge does not follow redirects (the token would go to another address) and does not read a redirect as "absent": ' +
        'point the provider\'s address at the server that answers (for an OpenBao standby, the active node)',
    });
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

const TOKEN_PROBES = new WeakMap<HttpClient, Promise<boolean>>();

/** `x-vault-token` -> `X-Vault-Token`. */
function headerName(h: string): string {
  return h.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase());
}

/**
 * The service's multi-error wording (`1 error occurred:\n\t* permission denied\n\n`, Go's
 * go-multierror) as plain messages: one per `*` line.
 */
export function unwrapMessage(m: string): string[] {
  const match = /^\d+ errors? occurred:\n([\s\S]*)$/.exec(m);
  if (!match) return [m];
  const items = match[1].split(/\n\t\* /).map((x) => x.replace(/^\t\* /, '').trim()).filter((x) => x !== '');
  return items.length ? items : [m];
}

/** The error with each wrapped message unwrapped; the same error when there is none. */
function unwrapped(e: ApiError): ApiError {
  if (!e.apiMessages.some((m) => /^\d+ errors? occurred:\n/.test(m))) return e;
  return new ApiError(e.status, e.apiMessages.flatMap(unwrapMessage), e.method, e.path, e.api, e.constructPath, e.tokenVariable,
    { retryable: e.retryable, exhausted: e.exhausted });
}
