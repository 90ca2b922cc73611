import type { Dispatcher } from 'undici';
import { Pool } from './undici-pool';
import { ApiError, apiMessagesOf } from './api-error';
import { Clock, SYSTEM_CLOCK } from '../clock';
import { RateLimiter } from './rate-limiter';
import { RedactionContext, sensitiveValuesOf } from './redact';
import { ApiHttpRules, apiProfileOf } from './api-profile';
import { isRetryableStatus } from './retry-policy';
import { connectionHint, displayUrl, TlsConnectOptions } from './transport';

/** How to reach one API and how hard to try. */
export interface HttpClientOptions {
  /** The API's name, used in messages (and to find its registered rules when `rules` is not given). */
  readonly api: string;
  /** The API's retry and redaction rules. @default the registered profile of `api`, else none */
  readonly rules?: ApiHttpRules;
  /** Origin and optional base path, e.g. `http://127.0.0.1:8200`. */
  readonly baseUrl: string;
  /** Headers that authenticate every request (never logged, never in an error). */
  readonly authHeaders: Record<string, string>;
  /** Environment variable the token came from, named in permission errors. */
  readonly tokenVariable?: string;
  /** Requests per second to this API (0: unlimited). */
  readonly rateLimit?: number;
  /** Connections in the pool. @default 16 */
  readonly connections?: number;
  /** Per-request timeout. @default 30000 */
  readonly timeoutMs?: number;
  /** Retries of a retryable failure. @default 5 */
  readonly retries?: number;
  /** First backoff step. @default 200 */
  readonly backoffBaseMs?: number;
  /** Longest single backoff. @default 10000 */
  readonly backoffMaxMs?: number;
  /**
   * Longest wait a server may ask for (`Retry-After`, `X-RateLimit-Reset`); a longer one fails
   * the request, naming the wait. @default 60000
   */
  readonly maxRetryAfterMs?: number;
  /** TLS material for an `https://` address (CA bundle, client certificate, skip-verify). */
  readonly tls?: TlsConnectOptions;
  /** Variables named in connection errors: where the address, CA and client certificate come from. */
  readonly variables?: { readonly address: string; readonly ca: string; readonly cert: string; readonly key: string; readonly skipVerify: string };
  /**
   * Proves the address reaches the API before the first request is trusted (a 404 means
   * absence only when the API said it). Runs once, on the first request; its failure fails every request.
   */
  readonly addressCheck?: (send: (req: HttpRequest) => Promise<HttpResponse>) => Promise<void>;
  /**
   * For a 404 that does not mean "absent" (nothing serves the path), a sentence saying so; such a
   * 404 is thrown even when accepted.
   */
  readonly foreignNotFound?: (body: unknown) => string | undefined;
  /** What time it is and how to wait: the rate limit, backoffs and server-asked waits (tests pass a fake one). @default the system clock */
  readonly clock?: Clock;
}

/** Retries one operation may spend across all its requests (recovery after an ambiguous failure included). */
export class RetryBudget {
  constructor(public left: number) {}

  /** Takes `n` requests' worth (one retry: 1); false, taking nothing, when fewer are left. */
  public take(n = 1): boolean {
    if (this.left < n) return false;
    this.left -= n;
    return true;
  }
}

export interface HttpRequest {
  readonly method: string;
  /** Path below the base URL, already percent-encoded where needed. */
  readonly path: string;
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Safe to send twice (GET, PUT, DELETE, LIST are by default). */
  readonly idempotent?: boolean;
  /** Construct address, for error messages. */
  readonly constructPath?: string;
  /** This request's timeout (a blocking query waits longer than usual). @default the client's */
  readonly timeoutMs?: number;
  /** Statuses answered without throwing (404 is usually "absent"). */
  readonly accept?: number[];
}

export interface HttpResponse<T = unknown> {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the answer is JSON, the text otherwise, undefined when empty. */
  readonly body: T;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'LIST', 'OPTIONS']);
/** Failures to connect at all: the request never reached the API, so the address (or TLS) is named. */
const CONNECT_CODES = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT|CERT|SSL|TLS|EPROTO|SELF_SIGNED|UNABLE_TO/;
const RETRY_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** Counters shared by every client of a run, reported in the final summary. */
export class HttpStats {
  /** Totals of the whole process (the CLI reports them with CONVERGE_STATS_FILE). */
  public static readonly process = { requests: 0, retries: 0, byApi: {} as Record<string, number>, checksByApi: {} as Record<string, number> };
  /** Told of every answer (status 0: none came), for a long-running process's metrics (`converge watch`). */
  public static onAnswer?: (api: string, status: number) => void;
  /**
   * Told a line per request sent and per answer (`--log-level trace`): API, method, URL without query
   * string, status and duration. Never a header or a body: they carry tokens and secret data.
   */
  public static onTrace?: (line: string) => void;
  public requests = 0;
  public retries = 0;
}

/**
 * One undici pool per API with timeouts, retries (backoff with full jitter, `Retry-After` up to
 * a cap) and an API-wide rate limit. Only what can succeed on retry is retried: no answer, 429,
 * 502-504, and a 500 the API's words do not mark as deterministic (retry-policy.ts). A
 * non-idempotent request is retried only on 429, when the server has said it did not process it.
 */
export class HttpClient {
  private readonly pool: Pool;
  private readonly limiter: RateLimiter;
  /** What time it is and how to wait for this client: its rate limit and retries, and the waits of operations made of several requests (polls). */
  public readonly clock: Clock;
  private readonly base: URL;
  /** Shared with every budgeted view of this client. */
  private readonly shared: { checked?: Promise<void>; root: HttpClient } = { root: this };
  /** The base URL's path without its last slash (worked out at the first request). */
  private basePath?: string;
  /** Set on a view made by `withRetryBudget`. */
  private budget?: RetryBudget;

  constructor(private readonly options: HttpClientOptions, public readonly stats: HttpStats = new HttpStats()) {
    this.base = new URL(options.baseUrl);
    this.pool = new Pool(this.base.origin, {
      connections: options.connections ?? 16,
      headersTimeout: options.timeoutMs ?? 30_000,
      bodyTimeout: options.timeoutMs ?? 30_000,
      keepAliveTimeout: 10_000,
      ...(options.tls && this.base.protocol === 'https:' ? { connect: { ...options.tls } } : {}),
    });
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.limiter = new RateLimiter(options.rateLimit ?? 0, this.clock);
  }

  public get api(): string { return this.options.api; }

  /** Read when needed: a domain may register its profile after a client of it was made. */
  private get rules(): ApiHttpRules | undefined {
    return this.options.rules ?? apiProfileOf(this.options.api);
  }

  /** The server's base URL as errors name it (without user or password). */
  public get address(): string { return displayUrl(this.base); }

  /** The names of the headers that carry the token (lower case), named in permission hints. */
  public get authHeaderNames(): string[] { return Object.keys(this.options.authHeaders).map((h) => h.toLowerCase()); }

  /** Retries of one failing request (the budget of a recovering operation starts from it). */
  public get retryLimit(): number { return this.options.retries ?? 5; }

  /**
   * This client, with every retry of its requests taken from `budget`: an operation that
   * recovers from an ambiguous failure (re-read, try again) stays within one bound in total.
   */
  public withRetryBudget(budget: RetryBudget): HttpClient {
    const view = Object.create(this) as HttpClient;
    view.budget = budget;
    return view;
  }

  /** Runs the address check now (it runs anyway before the first request). */
  public verify(): Promise<void> {
    if (!this.options.addressCheck) return Promise.resolve();
    // Sent by the client itself, not by a budgeted view: the check spends no operation's retries.
    const root = this.shared.root;
    const api = this.options.api;
    this.shared.checked ??= this.options.addressCheck((r) => {
      // Counted apart too: a fixed cost per run and API, not a request any object needs.
      HttpStats.process.checksByApi[api] = (HttpStats.process.checksByApi[api] ?? 0) + 1;
      return root.send(r);
    });
    return this.shared.checked;
  }

  public async close(): Promise<void> {
    await this.pool.close();
  }

  /** Sends a request; throws `ApiError` for a status >= 400 not in `accept`. */
  public async request<T = unknown>(req: HttpRequest): Promise<HttpResponse<T>> {
    await this.verify();
    return this.send<T>(req);
  }

  private async send<T>(req: HttpRequest): Promise<HttpResponse<T>> {
    const method = req.method.toUpperCase();
    const idempotent = req.idempotent ?? IDEMPOTENT.has(method);
    const retries = this.options.retries ?? 5;
    const fullPath = this.fullPath(req);
    const fail = (status: number, messages: string[], details: ConstructorParameters<typeof ApiError>[7]) =>
      new ApiError(status, messages, method, this.displayPath(req), this.options.api, req.constructPath, this.options.tokenVariable, details);
    const mayRetry = (attempt: number) => attempt < retries && (!this.budget || this.budget.take());
    for (let attempt = 0; ; attempt++) {
      await this.limiter.acquire();
      this.stats.requests++;
      HttpStats.process.requests++;
      HttpStats.process.byApi[this.options.api] = (HttpStats.process.byApi[this.options.api] ?? 0) + 1;
      let res: HttpResponse<T> | undefined;
      let failure: unknown;
      const trace = HttpStats.onTrace && this.traceLine(method, fullPath);
      const sentAt = Date.now();
      if (trace) HttpStats.onTrace!(`${trace}${attempt ? ` (retry ${attempt})` : ''}`);
      try {
        res = await this.sendOnce<T>(method, fullPath, req);
      } catch (e) {
        failure = e;
      }
      if (trace) {
        const answer = res ? `${res.status}` : `no answer (${(failure as { code?: string }).code || (failure as Error).name})`;
        HttpStats.onTrace!(`${trace} -> ${answer} in ${Date.now() - sentAt} ms`);
      }
      HttpStats.onAnswer?.(this.options.api, res ? res.status : 0);
      if (res) {
        this.observeLimits(res);
        if (res.status < 400) return res;
        const foreign = res.status === 404 ? this.options.foreignNotFound?.(res.body) : undefined;
        if (foreign) throw fail(404, apiMessagesOf(res.body, this.redaction(req)), { retryable: false, hint: foreign });
        if ((req.accept ?? []).includes(res.status)) return res;
        const retryable = isRetryableStatus(res.status, res.body, method, this.rules);
        const canRetry = retryable && (res.status === 429 || idempotent);
        const messages = () => apiMessagesOf(res!.body, this.redaction(req));
        if (canRetry) {
          const asked = this.serverWait(res);
          const cap = this.options.maxRetryAfterMs ?? 60_000;
          if (asked !== undefined && asked > cap) {
            throw fail(res.status, messages(), { retryable, exhausted: true, hint: `the server asked to wait ${Math.ceil(asked / 1000)} s ` +
              `before a retry, more than the ${Math.round(cap / 1000)} s converge waits (CONVERGE_MAX_RETRY_AFTER_S)` });
          }
          if (mayRetry(attempt)) {
            const wait = asked ?? this.backoff(attempt);
            if (res.status === 429) this.limiter.pause(wait);
            this.countRetry();
            await this.clock.sleep(wait);
            continue;
          }
        }
        throw fail(res.status, messages(), { retryable, exhausted: canRetry });
      }
      const code = (failure as { code?: string }).code ?? '';
      const retryable = RETRY_CODES.has(code);
      if (idempotent && retryable && mayRetry(attempt)) {
        this.countRetry();
        await this.clock.sleep(this.backoff(attempt));
        continue;
      }
      const message = (failure as Error).message ?? '';
      const v = this.options.variables;
      const hint = v && CONNECT_CODES.test(`${code} ${message}`) ? connectionHint(code, message, displayUrl(this.base), v) : undefined;
      throw fail(0, [[code, message].filter(Boolean).join(': ')], { retryable, exhausted: idempotent && retryable, hint });
    }
  }

  /**
   * `secrets GET http://host:8200/v1/secret/data/app`: no query string (filters, never needed to follow
   * a run), no user or password of the address, and the token masked should a path ever hold it.
   */
  private traceLine(method: string, fullPath: string): string {
    let where = `${this.base.origin}${fullPath.split('?')[0]}`;
    for (const h of Object.values(this.options.authHeaders)) {
      const token = h.replace(/^(Bearer|Basic)\s+/i, '');
      if (token.length >= 4) where = where.split(token).join('(token)').split(encodeURIComponent(token)).join('(token)');
    }
    return `${this.options.api} ${method} ${where}`;
  }

  private countRetry(): void {
    this.stats.retries++;
    HttpStats.process.retries++;
  }

  /** What an error message of this request's answer must not show: the token, sensitive values it sent. */
  private redaction(req: HttpRequest): RedactionContext {
    const dataIsSecret = this.rules?.dataIsSecret === true;
    return {
      literals: [...Object.values(this.options.authHeaders).map((h) => h.replace(/^(Bearer|Basic)\s+/i, '')), ...sensitiveValuesOf(req.body, dataIsSecret)],
      dataIsSecret,
    };
  }

  private async sendOnce<T>(method: string, fullPath: string, req: HttpRequest): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...this.options.authHeaders, ...(req.headers ?? {}) };
    let body: string | undefined;
    if (req.body !== undefined) {
      body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.pool.request({
      method: method as Dispatcher.HttpMethod, path: fullPath, headers, body,
      ...(req.timeoutMs ? { headersTimeout: req.timeoutMs, bodyTimeout: req.timeoutMs } : {}),
    });
    const text = await res.body.text();
    const type = String(res.headers['content-type'] ?? '');
    let parsed: unknown = text.length ? text : undefined;
    if (text.length && (type.includes('json') || /^[\[{"]|^(true|false|null)$/.test(text.trim()))) {
      try { parsed = JSON.parse(text); } catch { parsed = text; }
    }
    return { status: res.statusCode, headers: res.headers, body: parsed as T };
  }

  private fullPath(req: HttpRequest): string {
    const basePath = this.basePath ??= this.base.pathname.replace(/\/$/, '');
    let p = `${basePath}${req.path.startsWith('/') ? '' : '/'}${req.path}`;
    const q = Object.entries(req.query ?? {}).filter(([, v]) => v !== undefined);
    if (q.length) p += '?' + q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
    return p;
  }

  /** The path as shown in errors: no query string (it may carry filters, never needed to diagnose). */
  private displayPath(req: HttpRequest): string {
    return req.path;
  }

  private observeLimits(res: HttpResponse): void {
    const limit = Number(res.headers['x-ratelimit-limit']);
    if (limit > 0) this.limiter.adopt(limit);
  }

  /** `Retry-After` (seconds or a date) or `X-RateLimit-Reset` (seconds, fractional), in ms. */
  private serverWait(res: HttpResponse): number | undefined {
    const ra = res.headers['retry-after'];
    if (typeof ra === 'string') {
      const s = Number(ra);
      if (Number.isFinite(s)) return Math.max(0, s * 1000);
      const d = Date.parse(ra);
      if (!Number.isNaN(d)) return Math.max(0, d - this.clock.now());
    }
    const reset = Number(res.headers['x-ratelimit-reset']);
    if (res.status === 429 && Number.isFinite(reset) && reset >= 0) return reset * 1000;
    return undefined;
  }

  private backoff(attempt: number): number {
    const base = this.options.backoffBaseMs ?? 200;
    const cap = Math.min(this.options.backoffMaxMs ?? 10_000, base * 2 ** attempt);
    return Math.random() * cap;
  }
}

/** Percent-encodes each segment of a path that may hold slashes (a KV path), refusing traversal. */
export function encodePath(p: string): string {
  return p.split('/').map((seg) => {
    if (seg === '.' || seg === '..') throw new Error(`path "${p}" may not contain "." or ".." segments`);
    return encodeURIComponent(seg);
  }).join('/');
}
