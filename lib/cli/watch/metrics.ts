import * as http from 'http';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { HttpStats } from '../../core/http/http-client';

/**
 * The watcher's Prometheus metrics (prom-client) and its HTTP endpoint: `/metrics`, `/healthz`
 * (the process's loop answers) and `/readyz` (every stack of this replica's set is held by a live replica,
 * and every one it holds has finished a cycle).
 */
export class WatchMetrics {
  public readonly registry = new Registry();
  public readonly drifted = new Gauge({ name: 'converge_watch_drifted_objects', help: 'Objects drifted from what the app declares, per stack and kind', labelNames: ['stack', 'kind'], registers: [this.registry] });
  public readonly cycleSeconds = new Histogram({ name: 'converge_watch_cycle_duration_seconds', help: 'Duration of a reconcile cycle', labelNames: ['stack', 'scope'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60], registers: [this.registry] });
  public readonly cycles = new Counter({ name: 'converge_watch_cycles_total', help: 'Reconcile cycles, by outcome (ok, error, locked, not-held)', labelNames: ['stack', 'scope', 'outcome'], registers: [this.registry] });
  public readonly requests = new Counter({ name: 'converge_watch_requests_total', help: 'Requests to the APIs, by API and answer status (0: no answer)', labelNames: ['api', 'status'], registers: [this.registry] });
  public readonly lastSuccess = new Gauge({ name: 'converge_watch_last_success_timestamp_seconds', help: 'When the last cycle of the stack succeeded (Unix time)', labelNames: ['stack'], registers: [this.registry] });
  public readonly lockWaits = new Counter({ name: 'converge_watch_lock_waits_total', help: 'Cycles skipped because another run (an apply) held the stack lock', labelNames: ['stack'], registers: [this.registry] });
  public readonly reverted = new Counter({ name: 'converge_watch_reverted_total', help: 'Objects written back to what the app declares', labelNames: ['stack', 'kind'], registers: [this.registry] });
  public readonly held = new Gauge({ name: 'converge_watch_stacks_held', help: 'Stacks this replica watches now', registers: [this.registry] });
  private server?: http.Server;
  /** Why the replica is not ready, or undefined when it is. */
  private notReady: () => string | undefined = () => 'starting';

  constructor() {
    HttpStats.onAnswer = (api, status) => this.requests.inc({ api, status: String(status) });
  }

  /** Serves the endpoint on `host:port` (port 0: any); resolves with the address it listens on. */
  public async listen(hostPort: string, notReady: () => string | undefined): Promise<string> {
    this.notReady = notReady;
    const m = /^(?:(.*):)?(\d+)$/.exec(hostPort);
    if (!m) throw new Error(`--metrics-listen must be PORT or HOST:PORT (got "${hostPort}")`);
    const host = (m[1] || '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
    this.server = http.createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(Number(m[2]), host, () => resolve());
    });
    const a = this.server.address() as { address: string; port: number };
    return `${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}`;
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    } else if (path === '/metrics') {
      res.writeHead(200, { 'Content-Type': this.registry.contentType }).end(await this.registry.metrics());
    } else if (path === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok\n');
    } else if (path === '/readyz') {
      const why = this.notReady();
      res.writeHead(why ? 503 : 200, { 'Content-Type': 'text/plain' }).end(why ? `not ready: ${why}\n` : 'ready\n');
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    }
  }

  public async close(): Promise<void> {
    HttpStats.onAnswer = undefined;
    if (this.server) await new Promise<void>((r) => { this.server!.closeAllConnections?.(); this.server!.close(() => r()); });
  }
}
