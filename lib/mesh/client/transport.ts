import { HttpResponse } from '../../core/http/http-client';

// The mesh API's wire conventions, shared by the family clients: path segments, read query and
// headers, blocking-query timeouts and the query meta of the `X-Mesh-*` (or `X-Consul-*`) headers.

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

/**
 * One URL path segment: refuses names that would address another object once a server or proxy
 * normalises the URL (empty, `.`, `..`); encodes the rest (a `/` becomes `%2F`).
 */
export function segment(value: string, what: string): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new Error(`mesh ${what} "${String(value)}" cannot be used as a URL path segment (empty, "." or "..")`);
  }
  return encodeURIComponent(value);
}

/** A blocking query's request timeout: its wait (the server's default, 5 minutes, when none), a sixteenth of jitter, and 15 s. */
export function blockingTimeoutMs(wait: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(wait ?? '');
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const waitMs = m ? Number(m[1]) * unit[m[2]] : 300_000;
  return Math.ceil(waitMs * 17 / 16) + 15_000;
}

export function readQuery(o: MeshReadOptions): Record<string, string | undefined> {
  return {
    ns: o.namespace,
    dc: o.datacenter,
    ...(o.consistency === 'stale' ? { stale: '' } : {}),
    ...(o.consistency === 'consistent' ? { consistent: '' } : {}),
  };
}

export function readHeaders(o: MeshReadOptions): Record<string, string> | undefined {
  return o.namespaceHeader ? { 'X-Mesh-Namespace': o.namespaceHeader } : undefined;
}

export function queryResult<T>(res: HttpResponse<unknown>, value: T): MeshQueryResult<T> {
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
