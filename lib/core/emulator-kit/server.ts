import * as http from 'http';
import { AddressInfo } from 'net';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_JSON_DEPTH, jsonTooDeep, readBody } from './body';
import { Front } from './front';
import { Journal } from './journal';
import { METHOD_MARKER_HEADER } from './request-framer';
import { newSeed, seededRandom } from './seeded-random';
import { ApiEmulator, EmuRequest, EmuResponse, errorResponse } from './types';

/** Options of one served API. */
export interface ServeOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly host?: string;
  /** Added before every answer. */
  readonly latencyMs?: number;
  /** Share of requests (0..1) answered by an injected fault. */
  readonly faultRate?: number;
  /**
   * Seed of the fault sequence: the same seed and the same requests (in the same order) get the
   * same faults. @default a new one, told by `ServedApi.faultSeed`
   */
  readonly faultSeed?: string;
  /** `Retry-After` seconds sent with injected 429s. @default 1 */
  readonly faultRetryAfterSeconds?: number;
  /** Directory where the API's state is persisted (a snapshot and a journal, see `Journal`); writes are answered once on disk. */
  readonly dataDir?: string;
  /** How long a `timeout` fault holds the request before dropping it. @default 2000 */
  readonly faultTimeoutMs?: number;
  /** Called for each injected fault (tests count them). */
  readonly onFault?: (kind: FaultKind) => void;
  /** Largest request body accepted; a longer one is answered 413 and its connection closed. @default 32 MiB */
  readonly maxBodyBytes?: number;
  /** Deepest nesting of arrays and objects accepted in a JSON body (400 beyond). @default 512 */
  readonly maxJsonDepth?: number;
  /** Time allowed for a request's head to arrive (and for a new connection's first one). @default 10000 */
  readonly headersTimeoutMs?: number;
  /** Time allowed for a whole request (head and body) to arrive. @default 60000 */
  readonly requestTimeoutMs?: number;
  /** Open connections at most; more are closed as they arrive. @default 512 */
  readonly maxConnections?: number;
}

/**
 * Injected faults: 429 (with Retry-After), 500 and 503 answered without doing anything; `timeout`
 * holds the request past the client's patience and drops it; `drop` closes the connection
 * before handling; `drop-after` handles the request (the write happens) and then closes the
 * connection without an answer: the ambiguous case a client must read back to resolve.
 */
export type FaultKind = '429' | '500' | '503' | 'timeout' | 'drop' | 'drop-after';
const FAULTS: FaultKind[] = ['429', '500', '503', 'timeout', 'drop', 'drop-after'];

/** One API emulator listening on its own port. */
export class ServedApi {
  public static async start(api: ApiEmulator, options: ServeOptions): Promise<ServedApi> {
    const served = new ServedApi(api, options);
    if (options.dataDir) served.journal = Journal.open(options.dataDir, api);
    await new Promise<void>((resolve, reject) => {
      served.front.listener.once('error', reject);
      served.front.listener.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
    });
    return served;
  }

  /** The HTTP server; it never listens itself: connections come through `front`. */
  public readonly server: http.Server;
  /** The seed of the injected faults (when the fault rate is above 0): replaying it replays them. */
  public readonly faultSeed?: string;
  /** One draw per request decides its fault. */
  private readonly random: () => number;
  private journal?: Journal;
  private readonly front: Front;

  private constructor(public readonly api: ApiEmulator, private readonly options: ServeOptions) {
    if ((options.faultRate ?? 0) > 0) this.faultSeed = options.faultSeed ?? newSeed();
    // Each API its own sequence: the faults of one do not depend on the traffic of another.
    this.random = seededRandom(`${this.faultSeed ?? ''}/${api.name}`);
    this.server = http.createServer((req, res) => {
      this.serve(req, res).catch((e) => this.failed(res, e));
    });
    this.server.keepAliveTimeout = 30_000;
    // A client that half-closes after its request (HTTP/1.0 style) still gets the answer.
    (this.server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
    this.front = new Front(this.server, {
      headersTimeoutMs: options.headersTimeoutMs ?? 10_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
      maxConnections: options.maxConnections ?? 512,
    });
  }

  /** `http://127.0.0.1:<port>` */
  public get address(): string {
    const a = this.front.listener.address() as AddressInfo;
    return `http://127.0.0.1:${a.port}`;
  }

  public async stop(): Promise<void> {
    await this.api.close?.();
    await this.journal?.close();
    await this.front.close();
  }

  /** An exception escaped `serve`: answer 500 if nothing was sent yet, else drop the connection. */
  private failed(res: http.ServerResponse, e: unknown): void {
    try {
      if (res.headersSent || res.destroyed) { res.destroy(); return; }
      this.send(res, errorResponse(this.api, 500, `internal error: ${(e as Error)?.message ?? String(e)}`));
    } catch {
      res.destroy();
    }
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const read = await readBody(req, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    if (read.kind === 'aborted') return;
    if (read.kind === 'too-large') {
      // Close rather than drain: the rest of the body is never read.
      res.shouldKeepAlive = false;
      res.once('finish', () => req.socket.destroy());
      const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      this.send(res, errorResponse(this.api, 413, `request body too large: the limit is ${limit} bytes`));
      return;
    }
    const body = read.body;
    if (jsonTooDeep(body, this.options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH)) {
      const max = this.options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
      this.send(res, errorResponse(this.api, 400, `request body nests deeper than ${max} levels`));
      return;
    }
    if (this.options.latencyMs) await new Promise((r) => setTimeout(r, this.options.latencyMs));

    const fault = this.pickFault();
    if (fault && fault !== 'drop-after') {
      this.options.onFault?.(fault);
      if (fault === 'drop') { req.socket.destroy(); return; }
      if (fault === 'timeout') {
        await new Promise((r) => setTimeout(r, this.options.faultTimeoutMs ?? 2000));
        req.socket.destroy();
        return;
      }
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault === '429') headers['retry-after'] = String(this.options.faultRetryAfterSeconds ?? 1);
      res.writeHead(Number(fault), headers);
      res.end(JSON.stringify({ errors: [`injected fault ${fault}`] }));
      return;
    }

    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const rawPath = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
    let decoded: string;
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      this.send(res, errorResponse(this.api, 400, 'invalid percent-encoding in path'));
      return;
    }
    let query: URLSearchParams;
    try {
      query = new URLSearchParams(q >= 0 ? rawUrl.slice(q + 1) : '');
    } catch {
      query = new URLSearchParams();
    }
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    let method = (req.method ?? 'GET').toUpperCase();
    // The front rewrote a `LIST` request line (which Node's parser refuses) to GET plus this marker.
    if (method === 'GET' && headers[METHOD_MARKER_HEADER]?.toUpperCase() === 'LIST') method = 'LIST';
    delete headers[METHOD_MARKER_HEADER];
    const emuReq: EmuRequest = { method, path: decoded, rawPath, query, headers, body };
    let answer: EmuResponse;
    try {
      answer = await this.api.handle(emuReq);
      if (this.journal) {
        if (!this.journal.tracksChanges && this.api.mutates(emuReq) && answer.status < 400) this.journal.changed();
        // No answer leaves before the changes made so far are on disk (group commit: one fsync per batch).
        await this.journal.sync();
      }
    } catch (e) {
      answer = errorResponse(this.api, 500, `internal error: ${(e as Error)?.message ?? String(e)}`);
    }
    if (fault === 'drop-after') {
      this.options.onFault?.(fault);
      req.socket.destroy();
      return;
    }
    this.send(res, answer);
  }

  /** The fault of the next request: one draw below the rate is a fault, its place in [0, rate) the kind. */
  private pickFault(): FaultKind | undefined {
    const rate = this.options.faultRate ?? 0;
    if (rate <= 0) return undefined;
    const draw = this.random();
    if (draw >= rate) return undefined;
    return FAULTS[Math.min(FAULTS.length - 1, Math.floor((draw / rate) * FAULTS.length))];
  }

  private send(res: http.ServerResponse, answer: EmuResponse): void {
    const headers: Record<string, string> = { ...(answer.headers ?? {}) };
    let payload: string | Buffer | undefined;
    if (answer.body === undefined || answer.status === 204) {
      payload = undefined;
    } else if (typeof answer.body === 'string' || Buffer.isBuffer(answer.body)) {
      payload = answer.body;
      headers['content-type'] ??= answer.contentType ?? 'text/plain; charset=utf-8';
    } else {
      payload = JSON.stringify(answer.body);
      headers['content-type'] ??= answer.contentType ?? 'application/json';
    }
    res.writeHead(answer.status, headers);
    res.end(payload);
  }
}
