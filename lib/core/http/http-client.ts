import { Dispatcher, Pool } from 'undici';
import { ApiError, apiMessagesOf } from './api-error';
import { RateLimiter, sleep } from './rate-limiter';

/** How to reach one API and how hard to try. */
export interface HttpClientOptions {
  /** `platform`, `secrets` or `mesh`, used in messages. */
  readonly api: string;
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
// A server error on an idempotent request is safe to retry (500 included: reads fail that way too).
const RETRY_STATUS = new Set([500, 502, 503, 504]);
const RETRY_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** Counters shared by every client of a run, reported in the final summary. */
export class HttpStats {
  /** Totals of the whole process (the CLI reports them with CONVERGE_STATS_FILE). */
  public static readonly process = { requests: 0, retries: 0, byApi: {} as Record<string, number> };
  public requests = 0;
  public retries = 0;
}

/**
 * One undici pool per API with timeouts, retries (backoff with full jitter, `Retry-After`)
 * and an API-wide rate limit. A non-idempotent request is retried only on 429, when the
 * server has said it did not process it.
 */
export class HttpClient {
  private readonly pool: Pool;
  private readonly limiter: RateLimiter;
  private readonly base: URL;

  constructor(private readonly options: HttpClientOptions, public readonly stats: HttpStats = new HttpStats()) {
    this.base = new URL(options.baseUrl);
    this.pool = new Pool(this.base.origin, {
      connections: options.connections ?? 16,
      headersTimeout: options.timeoutMs ?? 30_000,
      bodyTimeout: options.timeoutMs ?? 30_000,
      keepAliveTimeout: 10_000,
    });
    this.limiter = new RateLimiter(options.rateLimit ?? 0);
  }

  public get api(): string { return this.options.api; }

  public async close(): Promise<void> {
    await this.pool.close();
  }

  /** Sends a request; throws `ApiError` for a status >= 400 not in `accept`. */
  public async request<T = unknown>(req: HttpRequest): Promise<HttpResponse<T>> {
    const method = req.method.toUpperCase();
    const idempotent = req.idempotent ?? IDEMPOTENT.has(method);
    const retries = this.options.retries ?? 5;
    const fullPath = this.fullPath(req);
    for (let attempt = 0; ; attempt++) {
      await this.limiter.acquire();
      this.stats.requests++;
      HttpStats.process.requests++;
      HttpStats.process.byApi[this.options.api] = (HttpStats.process.byApi[this.options.api] ?? 0) + 1;
      let res: HttpResponse<T> | undefined;
      let failure: unknown;
      try {
        res = await this.send<T>(method, fullPath, req);
      } catch (e) {
        failure = e;
      }
      if (res) {
        this.observeLimits(res);
        const retryable = res.status === 429 || (idempotent && RETRY_STATUS.has(res.status));
        if (retryable && attempt < retries) {
          const wait = this.serverWait(res) ?? this.backoff(attempt);
          if (res.status === 429) this.limiter.pause(wait);
          this.stats.retries++;
          HttpStats.process.retries++;
          await sleep(wait);
          continue;
        }
        if (res.status >= 400 && !(req.accept ?? []).includes(res.status)) {
          throw new ApiError(res.status, apiMessagesOf(res.body), method, this.displayPath(req), this.options.api,
            req.constructPath, this.options.tokenVariable);
        }
        return res;
      }
      const code = (failure as { code?: string }).code ?? '';
      if (idempotent && RETRY_CODES.has(code) && attempt < retries) {
        this.stats.retries++;
        HttpStats.process.retries++;
        await sleep(this.backoff(attempt));
        continue;
      }
      throw new ApiError(0, [`${code || (failure as Error).message}`], method, this.displayPath(req), this.options.api,
        req.constructPath, this.options.tokenVariable);
    }
  }

  private async send<T>(method: string, fullPath: string, req: HttpRequest): Promise<HttpResponse<T>> {
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
    const basePath = this.base.pathname.replace(/\/$/, '');
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
      if (!Number.isNaN(d)) return Math.max(0, d - Date.now());
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
