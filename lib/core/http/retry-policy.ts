/**
 * Which server errors can succeed on retry. 502, 503 and 504 always can (a proxy, a sealed or
 * standby node, a gateway timeout). A 500 depends on the API and its words:
 *
 * - mesh: the mesh system answers 500 for every error of its RPC layer, validation and chain
 *   compilation included (`discovery chain "web" uses a protocol "tcp" that does not permit
 *   advanced routing or splitting behavior`, `Split weights must sum to 100`, a failed `cas`).
 *   Those answer the same every time, so a mesh 500 is retried only when its text names a
 *   passing condition (no cluster leader, an RPC or network failure, a timeout).
 * - secrets: a 500 is retried unless its text is one of the service's deterministic refusals
 *   (a role not in `allowed_roles`, an engine not configured yet, directory credentials refused).
 * - platform: the API's own 500 (a JSON:API error document) is retried on reads only. The spec
 *   answers client errors with 4xx, but a second server of the API (OTF) answers 500 to bad input
 *   too: a POST, PATCH or DELETE sent again is refused the same way. A 500 that is no JSON:API
 *   document came from something in between (a proxy, the emulator's injected faults): it stays
 *   ambiguous, and a write is tried again only after a read showed it did not happen (recovery.ts).
 */

/** Transient conditions of the mesh system's 500s (and the emulator's injected faults). */
const MESH_TRANSIENT = /no cluster leader|leadership lost|not ready to serve|rpc error|raft|timeout|timed out|deadline exceeded|\beof\b|connection (?:reset|refused)|broken pipe|i\/o|temporarily|try again|injected fault/i;

/** Refusals of the secrets service that answer the same until the configuration changes. */
const SECRETS_DETERMINISTIC = /is not an allowed role|unsupported credential_type|could not find database connection|no (?:access )?configuration|write \S+ first|Invalid Credentials|unknown (?:role|key)/i;

/** A JSON:API error document (`{"errors":[{status, title, detail}]}`): the platform API's own words. */
function isJsonApiErrors(body: unknown): boolean {
  const errors = (body as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors) && errors.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e));
}

/** The text of an answer's body, for matching (a JSON document stringified). */
function textOf(body: unknown): string {
  if (body == null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** Methods that only read. */
const READS = new Set(['GET', 'HEAD', 'LIST', 'OPTIONS']);

/**
 * True when a failed answer of `api` with this status and body could succeed if sent again.
 * `method` (upper case) where known: a platform 500 is retried on reads only.
 */
export function isRetryableStatus(api: string, status: number, body: unknown, method?: string): boolean {
  if (status === 429 || status === 502 || status === 503 || status === 504) return true;
  if (status !== 500) return false;
  if (api === 'platform' && method !== undefined && !READS.has(method.toUpperCase()) && isJsonApiErrors(body)) return false;
  const text = textOf(body);
  // A 500 without a word came from something in between (a proxy), not from the API's logic.
  if (!text.trim()) return true;
  if (api === 'mesh') return MESH_TRANSIENT.test(text);
  if (api === 'secrets') return !SECRETS_DETERMINISTIC.test(text);
  return true;
}
