/**
 * What converge must know of one HTTP API to talk to it, given by the API's domain (each
 * `lib/<domain>/api-profile.ts`) and looked up by the provider's API name: core names no API.
 */

/** An answer as the address probe sees it (an `HttpResponse`). */
export interface ProbeAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

/** The cheap request that proves an address reaches the API (`address-check.ts`). */
export interface AddressProbe {
  readonly path: string;
  readonly query?: Record<string, string>;
  /** The API's path prefix, which the address must not repeat. */
  readonly prefix: string;
  /** Statuses judged rather than thrown besides 401, 403, 404 and 405 (a health endpoint's own codes). */
  readonly accept?: readonly number[];
  /** undefined when the answer is the API's; else what is wrong. */
  readonly judge: (res: ProbeAnswer) => string | undefined;
}

/** Environment variables of an API's TLS settings, named after the real services' own. */
export interface TlsVariables {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
  /** Skips verification when true (or, for `inverted`, when false). */
  readonly skipVerify: string;
  /** The variable says "verify" (`…=false` skips), as some services' own does. */
  readonly inverted?: boolean;
}

/**
 * The headers an API's token may travel in: the spec's first (the default), then those real servers
 * read. `Authorization` carries `Bearer <token>`.
 */
export interface TokenHeaders {
  /** Header names as written in messages and enums (`X-Some-Token`, `Authorization`), the default first. */
  readonly names: readonly string[];
  /** The environment variable choosing one when the provider does not (`tokenHeader`); none: always the default. */
  readonly variable?: string;
}

/** The environment variables a provider reads the API's address and token from unless it names others. */
export interface StandardVariables {
  readonly addressEnv: string;
  readonly tokenEnv: string;
}

/** The rules of an API the HTTP client applies to each answer. */
export interface ApiHttpRules {
  /**
   * Whether a 500 with words (`text`: the body, stringified) can succeed if sent again; `method` in
   * upper case where known. A 500 without a word came from something in between and is always retried.
   * @default every 500 is retried
   */
  readonly retry500?: (answer: { text: string; body: unknown; method?: string }) => boolean;
  /** The data the API stores is secret: error messages never show a body's `data`. @default false */
  readonly dataIsSecret?: boolean;
}

/** One API, as its domain registers it. */
export interface ApiProfile extends ApiHttpRules {
  /** The API's name (a provider's `api`). */
  readonly api: string;
  /** Where a construct without a provider (or a provider that names none) reads the address and token. */
  readonly variables: StandardVariables;
  /**
   * More variables that hold this API's token: those of the real servers' own tools, which a CI job
   * may hold beside converge's. No provider of another API reads them, nor any provider its address.
   * @default none
   */
  readonly toolTokenVariables?: readonly string[];
  readonly tokenHeaders: TokenHeaders;
  readonly tls: TlsVariables;
  /** Requests per second the API publishes (0: no limit). */
  readonly rateLimit: number;
  /** How to prove an address reaches this API. */
  readonly probe: AddressProbe;
  /**
   * For a 404 that does not mean "absent" (nothing serves the path), a sentence saying so, naming
   * `addressVariable`; such a 404 is thrown even when accepted (`HttpClientOptions.foreignNotFound`).
   */
  readonly foreignNotFound?: (body: unknown, addressVariable: string) => string | undefined;
}

const profiles = new Map<string, ApiProfile>();

/**
 * Registers an API's profile (each domain's `api-profile.ts` does when loaded, and again with its
 * kinds). Registered again, it moves to the end: the order of `apiProfiles()` is that of the last
 * registrations (`registerAllKinds`: platform, secrets, mesh), whatever module loaded first.
 */
export function registerApiProfile(profile: ApiProfile): void {
  profiles.delete(profile.api);
  profiles.set(profile.api, profile);
}

/** Every registered profile, in the order of registration (above). */
export function apiProfiles(): readonly ApiProfile[] {
  return [...profiles.values()];
}

/** The registered profile of an API, if any. */
export function apiProfileOf(api: string): ApiProfile | undefined {
  return profiles.get(api);
}

/** The registered profile of an API; an error when its domain was not registered. */
export function requireApiProfile(api: string): ApiProfile {
  const p = profiles.get(api);
  if (!p) throw new Error(`no profile of the ${api} API is registered: its domain's api-profile.ts was not loaded (the package's entry loads every domain)`);
  return p;
}

/** The headers carrying `token` in `header` (a name of the table, any case; `bearer` means `Authorization`). */
export function tokenHeaderValues(header: string, token: string): Record<string, string> {
  const h = header.toLowerCase();
  return h === 'authorization' || h === 'bearer' ? { authorization: `Bearer ${token}` } : { [h]: token };
}

/**
 * The header a setting names, as the table spells it (case-insensitive; `Bearer` means
 * `Authorization`); the default when unset or blank; an error naming `source` for anything else.
 */
export function parseTokenHeader(table: TokenHeaders, value: string | undefined, source: string, api: string): string {
  if (value === undefined || value.trim() === '') return table.names[0];
  const wanted = value.trim().toLowerCase();
  const found = table.names.find((n) => n.toLowerCase() === wanted || (wanted === 'bearer' && n.toLowerCase() === 'authorization'));
  if (!found) {
    throw new Error(`${source} is "${value}": the ${api} token header must be one of ${table.names.join(', ')} ` +
      '(Authorization sends "Authorization: Bearer <token>")');
  }
  return found;
}

/** The token a request carries in any header of the table (in its order), "" when none: the servers' (and emulator's) side. */
export function tokenOfRequest(table: TokenHeaders, headers: Record<string, string | string[] | undefined>): string {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
  for (const name of table.names) {
    const h = name.toLowerCase();
    const value = h === 'authorization' ? /^Bearer\s+(.+)$/i.exec(one(headers.authorization).trim())?.[1] ?? '' : one(headers[h]);
    if (value) return value;
  }
  return '';
}
