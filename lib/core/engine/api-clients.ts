import { AddressOrigin, addressCheck } from '../http/address-check';
import { parseTokenHeader, requireApiProfile, tokenHeaderValues } from '../http/api-profile';
import { HttpClient, HttpStats } from '../http/http-client';
import { connectionHint, diagnoseTls, displayUrl, envFlag, isLoopback, loadTls, TlsFiles } from '../http/transport';
import { ProviderConfig } from '../model';
import { forbiddenProviderVariable } from '../reserved-variables';
import { ApiName } from './handler';

/** The auth headers for a provider: its chosen token header (prop, then the API's variable), else the API's default. */
export function authHeadersFor(provider: ProviderConfig, token: string, env: NodeJS.ProcessEnv): Record<string, string> {
  const table = requireApiProfile(provider.api).tokenHeaders;
  // An API with one header (or no variable) has nothing to choose.
  if (table.names.length < 2 || !table.variable) return tokenHeaderValues(table.names[0], token);
  const [value, source] = provider.tokenHeader ? [provider.tokenHeader, `the ${provider.api} provider's tokenHeader`] : [env[table.variable], table.variable];
  return tokenHeaderValues(parseTokenHeader(table, value, source, provider.api), token);
}

/** Said after an address error: the way to try converge with no API of one's own. */
const EMULATOR_HINT = '\nTo try converge without these APIs, `converge emulator --write-env .emulator.env --detach` serves all three here '
  + '(then `set -a; . ./.emulator.env; set +a`; docs/emulator.md).';

/** The opt-in for plain HTTP to a host that is not loopback. */
export const INSECURE_HTTP_VARIABLE = 'CONVERGE_ALLOW_INSECURE_HTTP';
/** The longest `Retry-After` obeyed, in seconds. */
export const MAX_RETRY_AFTER_VARIABLE = 'CONVERGE_MAX_RETRY_AFTER_S';

/** Tunables of every client of a run. */
export interface ClientTuning {
  readonly timeoutMs?: number;
  readonly retries?: number;
  /** Connections per API: as many as operations run at once against it (each makes one request at a time). @default 16 */
  readonly connections?: number;
  /** Requests per second per API, overriding each API profile's rate limit. */
  readonly rateLimits?: Partial<Record<ApiName, number>>;
}

/**
 * One HttpClient per distinct provider (API, address, token variable, TLS settings), created on
 * first use. The base URL is the API's address without its path prefix: each domain client adds
 * `/api/v2` or `/v1`. Each client checks its address once, before its first request is trusted.
 */
export class ApiClients {
  public readonly stats = new HttpStats();
  private readonly clients = new Map<string, HttpClient>();

  constructor(private readonly tuning: ClientTuning = {}, private readonly env: NodeJS.ProcessEnv = process.env) {}

  public for(provider: ProviderConfig): HttpClient {
    // Objects of one provider share its object (readSynthDir): found by identity before the key is built.
    const same = this.byProvider.get(provider);
    if (same) return same;
    const client = this.forKey(provider);
    this.byProvider.set(provider, client);
    return client;
  }

  private readonly byProvider = new WeakMap<ProviderConfig, HttpClient>();

  private forKey(provider: ProviderConfig): HttpClient {
    const key = JSON.stringify([provider.api, provider.address ?? '', provider.addressEnv, provider.tokenEnv, provider.caCertFile,
      provider.clientCertFile, provider.clientKeyFile, provider.skipTlsVerify, provider.allowInsecureHttp, provider.tokenHeader]);
    let c = this.clients.get(key);
    if (c) return c;
    const profile = requireApiProfile(provider.api);
    // Whatever named them (the synthesized output is checked when read, state only points at the app's providers).
    for (const [name, role] of [[provider.tokenEnv, 'token'], [provider.addressEnv, 'address']] as const) {
      const forbidden = forbiddenProviderVariable(provider.api, String(name), role);
      if (forbidden) throw new Error(`the ${provider.api} provider's ${role === 'token' ? 'tokenEnv' : 'addressEnv'} is refused: ${forbidden}`);
    }
    const variable = provider.address ? `the ${provider.api} provider's address` : provider.addressEnv;
    const address = provider.address ?? this.env[provider.addressEnv];
    if (!address) throw new Error(`the ${provider.api} API address is not set: set ${provider.addressEnv} (or run \`converge emulator\`)`);
    const url = this.parseAddress(address, variable, provider, !provider.address);
    const token = this.env[provider.tokenEnv];
    if (!token) throw new Error(`the ${provider.api} API token is not set: set ${provider.tokenEnv}`);
    const authHeaders = authHeadersFor(provider, token, this.env);
    const base = address.trim().replace(/\/+$/, '');
    const v = profile.tls;
    const variables = { address: variable, ca: v.ca, cert: v.cert, key: v.key, skipVerify: v.skipVerify };
    const tls = url.protocol === 'https:' ? loadTls(this.tlsFiles(provider)) : undefined;
    const origin: AddressOrigin = {
      api: provider.api, variable, address: displayUrl(url), url: displayUrl(new URL(base)),
      diagnose: tls && (async () => {
        const failure = await diagnoseTls(url, tls);
        return failure && connectionHint(failure.code, failure.message, displayUrl(url), variables);
      }),
    };
    const maxRetryAfter = Number(this.env[MAX_RETRY_AFTER_VARIABLE] ?? 60);
    if (!Number.isFinite(maxRetryAfter) || maxRetryAfter < 0) throw new Error(`${MAX_RETRY_AFTER_VARIABLE} must be a number of seconds, got "${this.env[MAX_RETRY_AFTER_VARIABLE]}"`);
    c = new HttpClient({
      api: provider.api,
      baseUrl: base,
      authHeaders,
      tokenVariable: provider.tokenEnv,
      rateLimit: this.tuning.rateLimits?.[provider.api] ?? profile.rateLimit,
      timeoutMs: this.tuning.timeoutMs,
      retries: this.tuning.retries,
      connections: this.tuning.connections,
      maxRetryAfterMs: maxRetryAfter * 1000,
      tls,
      variables,
      rules: profile,
      addressCheck: addressCheck(origin, profile.probe),
      foreignNotFound: profile.foreignNotFound && ((body) => profile.foreignNotFound!(body, variable)),
    }, this.stats);
    this.clients.set(key, c);
    return c;
  }

  /** Checks the address of each distinct provider now (else each is checked on its first request). */
  public async verify(providers: Iterable<ProviderConfig>): Promise<void> {
    const clients = new Set<HttpClient>();
    // Every API that cannot be used is named at once: a user fixing one should not meet the next on the next run.
    const problems: string[] = [];
    for (const p of providers) {
      try {
        clients.add(this.for(p));
      } catch (e) {
        problems.push((e as Error).message);
      }
    }
    const checks = await Promise.allSettled([...clients].map((c) => c.verify()));
    for (const c of checks) if (c.status === 'rejected') problems.push((c.reason as Error).message);
    const unique = [...new Set(problems)].map((m) => m.replace(/ \(or run `converge emulator`\)$/, ''));
    if (!unique.length) return;
    const hint = unique.some((m) => /not set|cannot be reached|does not reach/.test(m)) ? EMULATOR_HINT : '';
    if (unique.length === 1) throw new Error(`${unique[0]}${hint}`);
    throw new Error(`${unique.length} APIs cannot be used:\n${unique.map((m) => `  - ${m}`).join('\n')}${hint}`);
  }

  /** The first client made for an API (plan hooks use it). */
  public any(api: ApiName): HttpClient | undefined {
    for (const [k, c] of this.clients) if (k.startsWith(`["${api}"`)) return c;
    return undefined;
  }

  public async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close()));
  }

  /** A valid http(s) URL; plain HTTP only to loopback unless the user opted in. */
  private parseAddress(address: string, variable: string, provider: ProviderConfig, fromVariable: boolean): URL {
    // A value read from a variable is never shown until it is known to be an http(s) URL: the variable
    // may hold anything (a password, when a provider names the wrong one).
    const shown = (text: string) => (fromVariable ? '' : ` "${text}"`);
    let url: URL;
    try {
      url = new URL(address.trim());
    } catch {
      throw new Error(`${variable} is not a URL${shown(address)} (for example https://${provider.api}.example.com)`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new Error(`${variable} must start with https:// or http://${fromVariable ? '' : `, got "${displayUrl(url)}"`}`);
    }
    const optIn = provider.allowInsecureHttp || envFlag(this.env, INSECURE_HTTP_VARIABLE);
    if (url.protocol === 'http:' && !isLoopback(url.hostname) && !optIn) {
      throw new Error(`${variable} is ${displayUrl(url)}: plain http:// to a host that is not this machine would send the ` +
        `${provider.api} token (${provider.tokenEnv}) in clear. Use https://, or opt in with ${INSECURE_HTTP_VARIABLE}=1 ` +
        '(or the provider\'s allowInsecureHttp)');
    }
    return url;
  }

  /** Provider props first, then the API's variables. */
  private tlsFiles(p: ProviderConfig): TlsFiles {
    const v = requireApiProfile(p.api).tls;
    const pick = (prop: string | undefined, propName: string, variable: string): [string | undefined, string] =>
      (prop ? [prop, `the ${p.api} provider's ${propName}`] : [this.env[variable] || undefined, variable]);
    const [caFile, ca] = pick(p.caCertFile, 'caCertFile', v.ca);
    const [certFile, cert] = pick(p.clientCertFile, 'clientCertFile', v.cert);
    const [keyFile, key] = pick(p.clientKeyFile, 'clientKeyFile', v.key);
    const flag = envFlag(this.env, v.skipVerify);
    const skipVerify = p.skipTlsVerify ?? (flag === undefined ? undefined : v.inverted ? !flag : flag);
    return { caFile, certFile, keyFile, skipVerify, sources: { ca, cert, key, skipVerify: p.skipTlsVerify !== undefined ? `the ${p.api} provider's skipTlsVerify` : v.skipVerify } };
  }
}
