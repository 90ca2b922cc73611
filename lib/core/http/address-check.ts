import { ApiError } from './api-error';
import { HttpRequest, HttpResponse } from './http-client';

/**
 * The once-per-run proof that an address reaches the API it names, so that a 404 is trusted as
 * "absent" only when the API itself said it. Each API has a cheap endpoint its own clients use:
 * the platform's `GET /api/v2/ping` (204), the secrets service's `GET /v1/sys/health` (a JSON
 * document with `initialized`), the mesh's `GET /v1/status/leader` (a JSON string). An address
 * with the API's prefix (`…/api/v2`, `…/v1`), or a server that answers 404 to everything, fails
 * here with the variable and the URL, before anything is planned.
 */

/** Where the address came from and what it is, for messages. */
export interface AddressOrigin {
  readonly api: string;
  /** `PLATFORM_ADDRESS`, or `the provider's address` when the app gave it. */
  readonly variable: string;
  /** The address as given (without user or password). */
  readonly address: string;
  /** The base URL requests go to. */
  readonly url: string;
  /** When the API cannot be reached at all: a sentence on why, if more can be learnt (a TLS alert). */
  readonly diagnose?: () => Promise<string | undefined>;
}

/** A wrong address (or a service not ready): stops the run before planning. */
export class AddressCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressCheckError';
  }
}

type Send = (req: HttpRequest) => Promise<HttpResponse>;

interface Probe {
  readonly path: string;
  readonly query?: Record<string, string>;
  /** The API's path prefix, which the address must not repeat. */
  readonly prefix: string;
  /** undefined when the answer is the API's; else what is wrong. */
  readonly judge: (res: HttpResponse) => string | undefined;
}

const PROBES: Record<string, Probe> = {
  platform: {
    path: '/api/v2/ping', prefix: '/api/v2',
    // 401 and 403 are still the platform speaking (the token is checked by the requests that need it).
    // A 2xx counts when it is the ping's 204 or carries the platform's own headers (a catch-all web server's 200 does not).
    judge: (r) => {
      if (r.status === 401 || r.status === 403 || r.status === 204) return undefined;
      if (r.status < 300 && (r.headers['tfp-api-version'] !== undefined || r.headers['x-ratelimit-limit'] !== undefined)) return undefined;
      return `answered ${r.status}, not the platform API's 204`;
    },
  },
  secrets: {
    // A standby node answers 429 (or 473) unless told that a standby is fine: it forwards requests to the active one.
    path: '/v1/sys/health', query: { standbyok: 'true', perfstandbyok: 'true' }, prefix: '/v1',
    judge: (r) => {
      const b = r.body as { initialized?: unknown; sealed?: unknown } | undefined;
      if (!b || typeof b !== 'object' || typeof b.initialized !== 'boolean') return `answered ${r.status} without the secrets service's health document`;
      if (!b.initialized) return 'the secrets service is not initialized';
      if (b.sealed === true) return 'the secrets service is sealed';
      return undefined;
    },
  },
  mesh: {
    path: '/v1/status/leader', prefix: '/v1',
    judge: (r) => {
      // The leader's RPC address as a JSON string (`"10.0.0.1:8300"`), or `""` while there is none.
      if (r.status !== 200 || typeof r.body !== 'string' || !/^$|^(\[[^\]]+\]|[^\s:<>"]+):\d+$/.test(r.body)) {
        return `answered ${r.status} without the mesh API's leader address`;
      }
      if (r.body === '') return 'the mesh has no cluster leader';
      return undefined;
    },
  },
};

/**
 * Answers judged rather than thrown: a 404 (the wrong address), 401/403, and the secrets
 * service's health codes that are no server error (472, 473 standby kinds, 501 not initialized).
 * A 429 or 5xx is retried as any request is; a sealed service (503) fails after the retries.
 */
const ACCEPTED = [401, 403, 404, 405, 472, 473, 501];

/** The check of one API's address, for `HttpClientOptions.addressCheck`. */
export function addressCheck(origin: AddressOrigin): (send: Send) => Promise<void> {
  const probe = PROBES[origin.api];
  if (!probe) return async () => undefined;
  return async (send) => {
    const url = `${origin.url}${probe.path}`;
    let problem: string | undefined;
    try {
      const res = await send({ method: 'GET', path: probe.path, query: probe.query, accept: ACCEPTED });
      problem = probe.judge(res);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      // No answer at all: the connection error already names the URL and what to check.
      if (e.status === 0) {
        const why = await origin.diagnose?.();
        throw new AddressCheckError(`the ${origin.api} API at ${origin.address} (${origin.variable}) cannot be reached: ${e.message}${why ? ` (${why})` : ''}`);
      }
      problem = `answered ${e.status}: ${e.apiMessages.join('; ') || 'no message'}`;
    }
    if (!problem) return;
    const suffix = new URL(origin.address).pathname.replace(/\/+$/, '');
    const hint = suffix.endsWith(probe.prefix)
      ? `; give the address without "${probe.prefix}" (converge adds it)`
      : '; is it the address of the ' + origin.api + ' API?';
    throw new AddressCheckError(`${origin.variable} does not reach the ${origin.api} API: GET ${url} ${problem} ` +
      `(${origin.variable} is "${origin.address}"${hint})`);
  };
}
