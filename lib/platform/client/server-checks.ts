/**
 * What converge does not take on trust from a platform server: that it pages as the API does, and
 * that a 404 is the API's own "absent". A second implementation of the API (OTF) ignores the page
 * parameters and answers routes it lacks with a web server's plain `404 page not found`.
 */

/** A list that could not be read whole: the server does not page it as the API does. */
export class IncompleteListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IncompleteListError';
  }
}

/** A route the server does not have (its 404 is no JSON:API document): not an absent object. */
export class NoSuchEndpointError extends Error {
  public readonly status = 404;
  constructor(message: string) {
    super(message);
    this.name = 'NoSuchEndpointError';
  }
}

/** What each family of routes serves, for "this server does not serve …". */
const SERVED: readonly [RegExp, string][] = [
  [/\/no-code-modules(\/|$)/, 'no-code modules (platform.NoCodeModule, platform.NoCodeWorkspace)'],
  [/\/registry-modules(\/|$)/, 'private registry modules (platform.NoCodeModule)'],
  [/\/relationships\/module-producers/, 'module producers (platform.ModuleProducers)'],
  [/\/relationships\/data-retention-policy/, 'data retention policies (platform.DataRetentionPolicy)'],
  [/\/oauth-clients\/[^/]+\/relationships\/projects/, 'the projects of OAuth clients (platform.OAuthClient projects)'],
  [/\/oauth-clients(\/|$)/, 'OAuth clients (platform.OAuthClient)'],
  [/\/entitlement-set/, 'entitlement sets (platform.OrganizationEntitlements)'],
  [/\/agent-pools|\/agents(\/|$)/, 'agent pools (platform.AgentPool, platform.Agents)'],
  [/\/workspaces(\/|$)/, 'workspaces'],
  [/\/organizations(\/|$)/, 'organizations (platform.Organization)'],
];

function isJsonApiErrorDocument(body: unknown): boolean {
  return body !== null && typeof body === 'object' && Array.isArray((body as { errors?: unknown }).errors);
}

/**
 * The error of a 404 that is no JSON:API error document (`404 page not found`, text/plain): the
 * server has no such endpoint, which says nothing of whether the object exists. undefined for the
 * API's own 404.
 */
export function noSuchEndpoint(server: string, method: string, path: string, body: unknown, constructPath?: string): NoSuchEndpointError | undefined {
  if (isJsonApiErrorDocument(body)) return undefined;
  const what = SERVED.find(([re]) => re.test(path))?.[1] ?? 'this endpoint';
  const said = typeof body === 'string' && body.trim() ? `"${body.trim().slice(0, 80)}"` : 'no JSON:API error document';
  return new NoSuchEndpointError(`${constructPath ? `${constructPath}: ` : ''}the platform server at ${server} has no endpoint ${method} ${path} `
    + `(it answered 404 ${said}, not the API's JSON:API error): this server does not serve ${what}`);
}

/**
 * The checks of one walk through a list: each page must be the one asked for, never one seen
 * before, and never past `total-pages`. `next()` answers the next page number (null at the end)
 * or throws an `IncompleteListError` naming the server.
 */
export class PageWalk {
  private readonly seen = new Map<string, number>();

  constructor(private readonly server: string, private readonly path: string) {}

  public next(asked: number, page: { items: readonly { id: string; type: string }[]; pagination?: Record<string, number | null> }): number | null {
    const p = page.pagination ?? {};
    const current = p['current-page'];
    const total = p['total-pages'];
    const signature = page.items.map((i) => `${i.type}/${i.id}`).join(',');
    const again = page.items.length ? this.seen.get(signature) : undefined;
    if (typeof current === 'number' && current !== asked) {
      throw this.fail(`page ${asked} was answered as page ${current} (the server ignores page[number])`);
    }
    if (again !== undefined) throw this.fail(`page ${asked} repeats page ${again} (the server ignores page[number])`);
    if (typeof total === 'number' && asked > Math.max(total, 1)) throw this.fail(`page ${asked} is past total-pages ${total}`);
    this.seen.set(signature, asked);
    const next = p['next-page'];
    if (typeof next !== 'number') return null;
    if (next <= asked) throw this.fail(`page ${asked} names page ${next} as the next one`);
    return next;
  }

  private fail(why: string): IncompleteListError {
    return new IncompleteListError(`the platform server at ${this.server} does not page GET ${this.path} as the API does: ${why}; `
      + 'converge stops rather than read the list again and again or take part of it for the whole');
  }
}
