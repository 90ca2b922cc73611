import * as http from 'http';
import { AddressInfo } from 'net';

/** One request as the proxy saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly body: string;
}

/** An answer the proxy gives in place of the target's. */
export interface ProxyAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface CountingProxy {
  readonly url: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A local HTTP proxy in front of `target` that records every request and lets `intercept`
 * answer some of them itself (a fault, an echo), so that tests count requests rather than time them.
 */
export async function countingProxy(target: string,
  intercept: (req: SeenRequest, headers: http.IncomingHttpHeaders) => ProxyAnswer | undefined = () => undefined): Promise<CountingProxy> {
  const seen: SeenRequest[] = [];
  const t = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const r: SeenRequest = { method: req.method ?? 'GET', url: req.url ?? '/', body: body.toString('utf8') };
      seen.push(r);
      const answer = intercept(r, req.headers);
      if (answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.headers ?? {}) });
        res.end(answer.body ?? '');
        return;
      }
      const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host } }, (u) => {
        res.writeHead(u.statusCode ?? 502, u.headers);
        u.pipe(res);
      });
      up.on('error', () => { res.writeHead(502); res.end(); });
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
