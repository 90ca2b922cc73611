import { ApiError } from './api-error';
import { AddressProbe } from './api-profile';
import { HttpRequest, HttpResponse } from './http-client';

/**
 * The once-per-run proof that an address reaches the API it names, so that a 404 is trusted as
 * "absent" only when the API itself said it. Each API has a cheap endpoint its own clients use
 * (`ApiProfile.probe`, e.g. a ping or a health document). An address with the API's prefix
 * (`…/v1`), or a server that answers 404 to everything, fails here with the variable and the URL,
 * before anything is planned.
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

/**
 * Answers judged rather than thrown: a 404 (the wrong address), 401/403 and 405, and those the probe
 * adds (a health endpoint's codes that are no server error). A 429 or 5xx is retried as any request is.
 */
const ACCEPTED = [401, 403, 404, 405];

/** The check of one API's address, for `HttpClientOptions.addressCheck`. */
export function addressCheck(origin: AddressOrigin, probe: AddressProbe | undefined): (send: Send) => Promise<void> {
  if (!probe) return async () => undefined;
  return async (send) => {
    const url = `${origin.url}${probe.path}`;
    let problem: string | undefined;
    try {
      const res = await send({ method: 'GET', path: probe.path, query: probe.query, accept: [...ACCEPTED, ...probe.accept ?? []] });
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
