import { ApiHttpRules } from './api-profile';

/**
 * Which server errors can succeed on retry. 429, 502, 503 and 504 always can (a rate limit, a
 * proxy, a sealed or standby node, a gateway timeout). A 500 without a word came from something in
 * between (a proxy) and is retried too; a 500 with words depends on the API, whose profile judges
 * them (`ApiHttpRules.retry500`: e.g. an API whose validation errors are 500s retries only those
 * naming a passing condition).
 */

/** The text of an answer's body, for matching (a JSON document stringified). */
function textOf(body: unknown): string {
  if (body == null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** Methods that only read. */
const READS = new Set(['GET', 'HEAD', 'LIST', 'OPTIONS']);

/** True when `method` (any case) only reads; undefined (unknown) is not. */
export function isReadMethod(method: string | undefined): boolean {
  return method !== undefined && READS.has(method.toUpperCase());
}

/**
 * True when a failed answer with this status and body could succeed if sent again, by the API's
 * `rules`. `method` (upper case) where known.
 */
export function isRetryableStatus(status: number, body: unknown, method: string | undefined, rules: ApiHttpRules | undefined): boolean {
  if (status === 429 || status === 502 || status === 503 || status === 504) return true;
  if (status !== 500) return false;
  const text = textOf(body);
  if (!text.trim()) return true;
  return rules?.retry500 ? rules.retry500({ text, body, method: method?.toUpperCase() }) : true;
}
