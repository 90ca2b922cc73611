import { HttpClient, HttpStats } from '../http/http-client';
import { ProviderConfig } from '../model';
import { ApiName } from './handler';

/** How each API authenticates and where its paths begin. */
export const API_PROFILES: Record<ApiName, { auth: (token: string) => Record<string, string>; rateLimit: number }> = {
  // The platform publishes 30 requests per second per user.
  platform: { auth: (t) => ({ authorization: `Bearer ${t}` }), rateLimit: 30 },
  // The secrets service and the mesh publish no limit.
  secrets: { auth: (t) => ({ 'x-secrets-token': t }), rateLimit: 0 },
  mesh: { auth: (t) => ({ 'x-mesh-token': t }), rateLimit: 0 },
};

/** Tunables of every client of a run. */
export interface ClientTuning {
  readonly timeoutMs?: number;
  readonly retries?: number;
  /** Connections per API: as many as operations run at once against it (each makes one request at a time). @default 16 */
  readonly connections?: number;
  /** Requests per second per API, overriding the defaults above. */
  readonly rateLimits?: Partial<Record<ApiName, number>>;
}

/**
 * One HttpClient per distinct provider (API, address, token variable), created on first use.
 * The base URL is the API's address without its path prefix: each domain client adds `/api/v2` or `/v1`.
 */
export class ApiClients {
  public readonly stats = new HttpStats();
  private readonly clients = new Map<string, HttpClient>();

  constructor(private readonly tuning: ClientTuning = {}, private readonly env: NodeJS.ProcessEnv = process.env) {}

  public for(provider: ProviderConfig): HttpClient {
    const key = `${provider.api}|${provider.address ?? ''}|${provider.addressEnv}|${provider.tokenEnv}`;
    let c = this.clients.get(key);
    if (c) return c;
    const profile = API_PROFILES[provider.api];
    const address = provider.address ?? this.env[provider.addressEnv];
    if (!address) throw new Error(`the ${provider.api} API address is not set: set ${provider.addressEnv} (or run \`converge emulator\`)`);
    const token = this.env[provider.tokenEnv];
    if (!token) throw new Error(`the ${provider.api} API token is not set: set ${provider.tokenEnv}`);
    c = new HttpClient({
      api: provider.api,
      baseUrl: address.replace(/\/+$/, ''),
      authHeaders: profile.auth(token),
      tokenVariable: provider.tokenEnv,
      rateLimit: this.tuning.rateLimits?.[provider.api] ?? profile.rateLimit,
      timeoutMs: this.tuning.timeoutMs,
      retries: this.tuning.retries,
      connections: this.tuning.connections,
    }, this.stats);
    this.clients.set(key, c);
    return c;
  }

  /** The first client made for an API (plan hooks use it). */
  public any(api: ApiName): HttpClient | undefined {
    for (const [k, c] of this.clients) if (k.startsWith(`${api}|`)) return c;
    return undefined;
  }

  public async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close()));
  }
}
