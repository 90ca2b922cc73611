import { tokenHeaderValues } from '../../core/http/api-profile';
import { HttpClient, HttpClientOptions, HttpResponse } from '../../core/http/http-client';
import { MESH_API_PROFILE } from '../api-profile';
import { ChainOverrides, CompiledChain } from '../compiler/chain';

/** How to reach a mesh API. */
export interface MeshConnection {
  /** Address without the `/v1` prefix, e.g. `http://127.0.0.1:8500`. */
  readonly address: string;
  readonly token: string;
  /**
   * The header that carries the token: the spec's `X-Mesh-Token`, or a real Consul server's `X-Consul-Token`
   * or `Authorization` (sent as `Bearer <token>`). @default "X-Mesh-Token"
   */
  readonly tokenHeader?: 'X-Mesh-Token' | 'X-Consul-Token' | 'Authorization';
  /**
   * Further HttpClient options. A blocking query holds its request open for up to `wait`:
   * keep `wait` below `timeoutMs` (30 s unless set here).
   */
  readonly options?: Partial<Omit<HttpClientOptions, 'baseUrl' | 'authHeaders' | 'api'>>;
}

/** Read options shared by the mesh API's reads. */
export interface MeshReadOptions {
  /**
   * `ns` query parameter (enterprise): the namespace. Sent only when given: a Community Edition
   * server refuses any `ns`, `default` included.
   */
  readonly namespace?: string;
  /** Sent as the `X-Mesh-Namespace` header instead of `ns` (the server prefers `ns`). */
  readonly namespaceHeader?: string;
  /** `?dc=`: ask another datacenter's servers. */
  readonly datacenter?: string;
  /** `stale` (any server may answer) or `consistent` (the leader checks it still leads). @default leader */
  readonly consistency?: 'stale' | 'consistent';
}

/** A list as a blocking query: it answers once the list's index passes `index`, or when `wait` elapses. */
export interface MeshBlockingOptions extends MeshReadOptions {
  /** The `index` of the last answer (`MeshQueryResult.index`); 0 or absent: answer at once. */
  readonly index?: number;
  /** Longest wait, a Go duration (`30s`); the request's timeout is this plus a margin (the server adds up to wait/16). */
  readonly wait?: string;
}

/** Options of a discovery-chain read. */
export interface DiscoveryChainOptions extends MeshReadOptions {
  /** `compile-dc`: the datacenter used as the basis of compilation. @default the agent's */
  readonly compileDatacenter?: string;
  /** Overrides; the request is a POST only when one is set. */
  readonly overrides?: ChainOverrides;
  /** Blocking query: answer only once the index passes this one (or `wait` elapses). */
  readonly index?: number;
  /** Blocking query: longest wait, a Go duration (`30s`). */
  readonly wait?: string;
}

/** A read's answer and the query meta of its `X-Mesh-*` headers (a real Consul's `X-Consul-*`). */
export interface MeshQueryResult<T> {
  readonly value: T;
  /** `X-Mesh-Index`: pass it as `index` of the next blocking query. */
  readonly index: number;
  readonly knownLeader: boolean;
  readonly effectiveConsistency?: string;
  /**
   * The server left out what the token may not read (`X-Consul-Results-Filtered-By-Acls: true`, or its
   * `X-Mesh-` form): an object missing from the list may exist.
   */
  readonly filteredByAcls: boolean;
}

/** A configuration entry as read, in the mesh system's JSON shape. */
export type ConfigEntryJson = Record<string, unknown> & { Kind: string; Name: string; CreateIndex?: number; ModifyIndex?: number; Namespace?: string };

/**
 * A typed client of the mesh API (`/v1`): the discovery chain and configuration entries.
 *
 * Authentication: the ACL token is sent as `X-Mesh-Token` on every request, the mesh system's
 * own header (named as the spec names the API); the server also accepts `Authorization:
 * Bearer <token>`, but `X-Mesh-Token` is chosen because it never collides with a proxy's or
 * load balancer's use of `Authorization`. The token never appears in an error.
 */
/**
 * One URL path segment: refuses names that would address another object once a server or proxy
 * normalises the URL (empty, `.`, `..`); encodes the rest (a `/` becomes `%2F`).
 */
function segment(value: string, what: string): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new Error(`mesh ${what} "${String(value)}" cannot be used as a URL path segment (empty, "." or "..")`);
  }
  return encodeURIComponent(value);
}

export class MeshClient {
  /** A client authenticated with a token. */
  public static connect(c: MeshConnection): MeshClient {
    return new MeshClient(new HttpClient({
      tokenVariable: 'MESH_HTTP_TOKEN',
      ...(c.options ?? {}),
      api: MESH_API_PROFILE.api,
      rules: MESH_API_PROFILE,
      baseUrl: c.address.replace(/\/+$/, '').replace(/\/v1$/, ''),
      authHeaders: tokenHeaderValues(c.tokenHeader ?? MESH_API_PROFILE.tokenHeaders.names[0], c.token),
    }));
  }

  /** Wraps an HttpClient whose base URL is the mesh address (without `/v1`), already authenticated. */
  constructor(public readonly http: HttpClient) {}

  /**
   * The compiled discovery chain of a service: GET, or POST when overrides are given.
   * Compile errors come back as an `ApiError` with status 500 and the compiler's message.
   */
  public async discoveryChain(service: string, o: DiscoveryChainOptions = {}, constructPath?: string): Promise<MeshQueryResult<CompiledChain>> {
    const hasOverrides = !!o.overrides && Object.values(o.overrides).some((v) => v !== undefined && v !== '' && v !== 0
      && !(typeof v === 'object' && !(v as { Mode?: string }).Mode));
    const res = await this.http.request<{ Chain: CompiledChain }>({
      method: hasOverrides ? 'POST' : 'GET',
      path: `/v1/discovery-chain/${segment(service, 'service')}`,
      query: { ...readQuery(o), 'compile-dc': o.compileDatacenter, index: o.index, wait: o.wait },
      headers: readHeaders(o),
      body: hasOverrides ? o.overrides : undefined,
      // A POST with overrides only reads: safe to retry.
      idempotent: true,
      constructPath,
    });
    return queryResult(res, res.body.Chain);
  }

  /** Writes a configuration entry; with `cas`, only if its ModifyIndex is `cas` (0: only if absent). False when the check failed. */
  public async putConfigEntry(entry: ConfigEntryJson, o: { cas?: number; namespace?: string } = {}, constructPath?: string): Promise<boolean> {
    const res = await this.http.request<boolean>({
      method: 'PUT', path: '/v1/config', query: { cas: o.cas, ns: o.namespace }, body: entry, constructPath,
      // A check-and-set write is not idempotent: repeated after a lost answer, it reports its own
      // first write as a conflict. Left to the engine, which reads back before trying again.
      idempotent: o.cas === undefined,
    });
    return res.body === true;
  }

  /** Reads a configuration entry; undefined when absent (404). */
  public async getConfigEntry(kind: string, name: string, o: MeshReadOptions = {}, constructPath?: string): Promise<ConfigEntryJson | undefined> {
    const res = await this.http.request<ConfigEntryJson>({
      method: 'GET', path: `/v1/config/${segment(kind, 'kind')}/${segment(name, 'name')}`,
      query: readQuery(o), headers: readHeaders(o), accept: [404], constructPath,
    });
    return res.status === 404 ? undefined : res.body;
  }

  /**
   * Lists the entries of a kind in a namespace (`*`: every namespace); with `index` (and `wait`), a
   * blocking query that answers when an entry of the kind changes.
   */
  public async listConfigEntries(kind: string, o: MeshBlockingOptions = {}, constructPath?: string): Promise<MeshQueryResult<ConfigEntryJson[]>> {
    const blocking = !!o.index && o.index > 0;
    const res = await this.http.request<ConfigEntryJson[]>({
      method: 'GET', path: `/v1/config/${segment(kind, 'kind')}`,
      query: { ...readQuery(o), ...(blocking ? { index: o.index, wait: o.wait } : {}) },
      headers: readHeaders(o), constructPath,
      ...(blocking ? { timeoutMs: blockingTimeoutMs(o.wait) } : {}),
    });
    return queryResult(res, res.body ?? []);
  }

  /** Deletes a configuration entry (absent is success); with `cas`, only at that ModifyIndex: false when the check failed. */
  public async deleteConfigEntry(kind: string, name: string, o: { cas?: number; namespace?: string } = {}, constructPath?: string): Promise<boolean> {
    const res = await this.http.request<unknown>({
      method: 'DELETE', path: `/v1/config/${segment(kind, 'kind')}/${segment(name, 'name')}`,
      query: { cas: o.cas, ns: o.namespace }, constructPath, idempotent: o.cas === undefined,
    });
    return res.body !== false;
  }

  public close(): Promise<void> {
    return this.http.close();
  }
}

/** A blocking query's request timeout: its wait (the server's default, 5 minutes, when none), a sixteenth of jitter, and 15 s. */
function blockingTimeoutMs(wait: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(wait ?? '');
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const waitMs = m ? Number(m[1]) * unit[m[2]] : 300_000;
  return Math.ceil(waitMs * 17 / 16) + 15_000;
}

function readQuery(o: MeshReadOptions): Record<string, string | undefined> {
  return {
    ns: o.namespace,
    dc: o.datacenter,
    ...(o.consistency === 'stale' ? { stale: '' } : {}),
    ...(o.consistency === 'consistent' ? { consistent: '' } : {}),
  };
}

function readHeaders(o: MeshReadOptions): Record<string, string> | undefined {
  return o.namespaceHeader ? { 'X-Mesh-Namespace': o.namespaceHeader } : undefined;
}

function queryResult<T>(res: HttpResponse<unknown>, value: T): MeshQueryResult<T> {
  const h = (n: string) => {
    const v = res.headers[n];
    return Array.isArray(v) ? v[0] : v;
  };
  return {
    value,
    index: Number(h('x-mesh-index') ?? h('x-consul-index') ?? 0),
    knownLeader: (h('x-mesh-knownleader') ?? h('x-consul-knownleader')) === 'true',
    effectiveConsistency: h('x-mesh-effective-consistency') ?? h('x-consul-effective-consistency'),
    filteredByAcls: (h('x-mesh-results-filtered-by-acls') ?? h('x-consul-results-filtered-by-acls')) === 'true',
  };
}
