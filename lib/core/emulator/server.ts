import * as http from 'http';
import { AddressInfo } from 'net';
import { Journal } from './journal';
import { ApiEmulator, EmuRequest, EmuResponse } from './types';

/** Options of one served API. */
export interface ServeOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly host?: string;
  /** Added before every answer. */
  readonly latencyMs?: number;
  /** Share of requests (0..1) answered by an injected fault. */
  readonly faultRate?: number;
  /** `Retry-After` seconds sent with injected 429s. @default 1 */
  readonly faultRetryAfterSeconds?: number;
  /** Directory where the API's state is persisted (a snapshot and a journal, see `Journal`); writes are answered once on disk. */
  readonly dataDir?: string;
  /** How long a `timeout` fault holds the request before dropping it. @default 2000 */
  readonly faultTimeoutMs?: number;
  /** Called for each injected fault (tests count them). */
  readonly onFault?: (kind: FaultKind) => void;
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
      served.server.once('error', reject);
      served.server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
    });
    return served;
  }

  public readonly server: http.Server;
  private journal?: Journal;

  private constructor(public readonly api: ApiEmulator, private readonly options: ServeOptions) {
    this.server = http.createServer((req, res) => { void this.serve(req, res); });
    this.server.keepAliveTimeout = 30_000;
  }

  /** `http://127.0.0.1:<port>` */
  public get address(): string {
    const a = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${a.port}`;
  }

  public async stop(): Promise<void> {
    await this.api.close?.();
    await this.journal?.close();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
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
      this.send(res, { status: 400, body: { errors: ['invalid percent-encoding in path'] } });
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
    const emuReq: EmuRequest = {
      method: (req.method ?? 'GET').toUpperCase(), path: decoded, rawPath, query, headers, body: Buffer.concat(chunks),
    };
    let answer: EmuResponse;
    try {
      answer = await this.api.handle(emuReq);
      if (this.journal) {
        if (!this.journal.tracksChanges && this.api.mutates(emuReq) && answer.status < 400) this.journal.changed();
        // No answer leaves before the changes made so far are on disk (group commit: one fsync per batch).
        await this.journal.sync();
      }
    } catch (e) {
      answer = { status: 500, body: { errors: [`internal error: ${(e as Error).message}`] } };
    }
    if (fault === 'drop-after') {
      this.options.onFault?.(fault);
      req.socket.destroy();
      return;
    }
    this.send(res, answer);
  }

  private pickFault(): FaultKind | undefined {
    const rate = this.options.faultRate ?? 0;
    if (rate <= 0 || Math.random() >= rate) return undefined;
    return FAULTS[Math.floor(Math.random() * FAULTS.length)];
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
