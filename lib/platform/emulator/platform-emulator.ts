import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { ChangeTracker } from '../../core/emulator-kit/change-tracker';
import { Router } from '../../core/emulator-kit/router';
import { ApiEmulator, EmuRequest, EmuResponse, json } from '../../core/emulator-kit/types';
import { registerAdminRoutes, tokenDigest } from './admin';
import { AdminContext } from './admin-request';
import { registerSeedRoutes } from './admin-seed';
import { PlatformContext } from './context';
import { ApiFailure, doc, errors, unauthorized } from './jsonapi';
import { registerAgentPoolRoutes } from '../agent-pool/agent-pool.emulator';
import { registerNoCodeRoutes, registerRegistryModuleRoutes } from '../no-code/no-code.emulator';
import { registerOAuthClientRoutes } from '../oauth-client/oauth-client.emulator';
import { registerOrganizationRoutes } from '../organization/organization.emulator';
import { registerProjectRoutes } from '../project/project.emulator';
import { registerTeamRoutes } from '../team/team.emulator';
import { registerVariableSetRoutes } from '../variable-set/variable-set.emulator';
import { registerVariableRoutes } from '../variable/variable.emulator';
import { registerWorkspaceManagementRoutes, registerWorkspaceRoutes } from '../workspace/workspace.emulator';
import { ping } from './ping';
import { registerSelfHostedRoutes } from '../organization/self-hosted.emulator';
import { UserRateLimit } from './rate-limit';
import { otherRequest, otherResponse, otherServerRefusal, PlatformShape } from './server-shape';
import { Edition, emptyState, PlatformState, TokenRecord, UserRecord } from './state';

export interface PlatformEmulatorOptions {
  /** Token of the administrator user: a user token that may create organizations and call `/__admin/`. */
  readonly adminToken: string;
  /** @default 'hosted' */
  readonly edition?: Edition;
  /** Requests per second per user; 0 disables enforcement (the headers still say 30). @default 30 */
  readonly rateLimit?: number;
  /** Milliseconds a no-code upgrade run spends in each status (pending, fetching, planning, …). @default 500 */
  readonly upgradeStepMs?: number;
  /**
   * What time it is for the rate limit and the steps of no-code upgrade runs (tests pass a fake
   * clock and move it). @default the system clock
   */
  readonly clock?: Pick<Clock, 'now'>;
  /** Whose choices to serve where the spec leaves room (`otf`: a second server of the API). @default 'spec' */
  readonly shape?: PlatformShape;
}

/** The published limit, announced in `X-RateLimit-Limit`. */
const PUBLISHED_LIMIT = 30;
const ADMIN_USER_ID = 'user-admin';

/** Titles of the errors the host answers itself. */
const STATUS_TITLES: Record<number, string> = {
  400: 'bad request', 413: 'payload too large', 500: 'internal server error',
};

/**
 * The platform API (`/api/v2`, JSON:API). Each resource family registers its routes from its
 * own file; this class does authentication, the per-user rate limit and error handling.
 */
export class PlatformEmulator implements ApiEmulator {
  public readonly name = 'platform';
  public readonly edition: Edition;
  public readonly shape: PlatformShape;
  /** Requests answered 429 by the rate limit (tests read it). */
  public rateLimited = 0;
  private state: PlatformState = emptyState();
  private readonly router = new Router<PlatformContext>();
  private readonly admin = new Router<AdminContext>();
  private readonly limiter: UserRateLimit;
  private readonly adminDigest: string;
  private readonly upgradeStepMs?: number;
  private tracker?: ChangeTracker;
  private readonly clock: Pick<Clock, 'now'>;

  constructor(options: PlatformEmulatorOptions) {
    if (!options.adminToken) throw new Error('the platform emulator needs an administrator token');
    this.edition = options.edition ?? 'hosted';
    this.shape = options.shape ?? 'spec';
    this.limiter = new UserRateLimit(options.rateLimit ?? PUBLISHED_LIMIT);
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.adminDigest = tokenDigest(options.adminToken);
    this.upgradeStepMs = options.upgradeStepMs;
    registerOrganizationRoutes(this.router);
    registerOAuthClientRoutes(this.router);
    registerAgentPoolRoutes(this.router);
    registerNoCodeRoutes(this.router);
    registerWorkspaceRoutes(this.router);
    registerWorkspaceManagementRoutes(this.router);
    registerProjectRoutes(this.router);
    registerVariableRoutes(this.router);
    registerTeamRoutes(this.router);
    registerVariableSetRoutes(this.router);
    registerRegistryModuleRoutes(this.router);
    registerSelfHostedRoutes(this.router);
    registerAdminRoutes(this.admin);
    registerSeedRoutes(this.admin);
    this.seed();
  }

  public handle(req: EmuRequest): EmuResponse {
    if (req.path === '/__admin' || req.path.startsWith('/__admin/')) return this.handleAdmin(req);
    const caller = this.authenticate(req);
    const limit = this.limiter.take(caller?.user.id, this.clock.now());
    const headers = {
      'X-RateLimit-Limit': String(this.limiter.limit > 0 ? this.limiter.limit : PUBLISHED_LIMIT),
      'X-RateLimit-Reset': limit.resetSeconds.toFixed(3),
    };
    return withHeaders(ping(req) ?? this.answer(req, caller, limit.allowed), headers);
  }

  /** The route's answer, in the spec's shapes or, under another shape, as that server gives it. */
  private answer(req: EmuRequest, caller: PlatformContext['caller'] | undefined, allowed: boolean): EmuResponse {
    if (this.shape === 'spec') return this.route(req, caller, allowed);
    return otherServerRefusal(req) ?? otherResponse(this.route(otherRequest(req), caller, allowed));
  }

  public mutates(req: EmuRequest): boolean {
    return req.method !== 'GET' && req.method !== 'HEAD';
  }

  public snapshot(): unknown {
    return JSON.parse(JSON.stringify(this.tracker ? this.tracker.raw(this.state) : this.state));
  }

  /** A JSON:API error document (the host's own errors: body too large or too deep, an internal error). */
  public error(status: number, message: string): EmuResponse {
    return errors(status, { status: String(status), title: STATUS_TITLES[status] ?? 'error', detail: message });
  }

  public restore(data: unknown): void {
    this.state = { ...emptyState(), ...(JSON.parse(JSON.stringify(data)) as PlatformState) };
    if (this.tracker) this.state = this.tracker.track('platform', this.state);
    this.seed();
  }

  public trackChanges(onChange: () => void): void {
    this.tracker = new ChangeTracker(onChange);
    this.state = this.tracker.track('platform', this.state);
  }

  public takeChanges(): unknown[] {
    return this.tracker?.take().map((c) => ({ p: c.path, v: c.value, d: c.deleted })) ?? [];
  }

  public applyChanges(changes: unknown[]): void {
    const raw = (this.tracker ? this.tracker.raw(this.state) : this.state) as unknown as Record<string, unknown>;
    for (const c of changes as { p: string[]; v?: unknown; d?: boolean }[]) ChangeTracker.applyChange(raw, c.p, c.v, !!c.d);
  }

  private route(req: EmuRequest, caller: PlatformContext['caller'] | undefined, allowed: boolean): EmuResponse {
    if (!caller) return unauthorized();
    if (!allowed) {
      this.rateLimited++;
      // The rate-limit error is the one platform error whose status is a number.
      return doc(429, { errors: [{ status: 429, title: 'Too many requests', detail: 'You have exceeded the API\'s rate limit.' }] });
    }
    const match = this.router.match(req);
    if (match === undefined) return errors(404, { status: '404', title: 'not found' });
    if (match === 'method') return errors(405, { status: '405', title: 'method not allowed' });
    try {
      return match.handler(req, match.params, { state: this.state, edition: this.edition, clock: this.clock, caller }) as EmuResponse;
    } catch (e) {
      if (e instanceof ApiFailure) return e.response;
      throw e;
    }
  }

  private authenticate(req: EmuRequest): { token: TokenRecord; user: UserRecord } | undefined {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!m) return undefined;
    const token = this.state.tokens[tokenDigest(m[1])];
    const user = token && this.state.users[token.userId];
    return token && user ? { token, user } : undefined;
  }

  private handleAdmin(req: EmuRequest): EmuResponse {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!m || tokenDigest(m[1]) !== this.adminDigest) return json(401, { errors: ['the admin interface needs the administrator token'] });
    const match = this.admin.match(req);
    if (match === undefined) return json(404, { errors: ['no such admin endpoint (GET /__admin/ lists them)'] });
    if (match === 'method') return json(405, { errors: ['method not allowed'] });
    return match.handler(req, match.params, { state: this.state }) as EmuResponse;
  }

  /** The administrator user and its token exist in every state (also after a restore). */
  private seed(): void {
    if (this.upgradeStepMs !== undefined) this.state.upgradeStepMs = this.upgradeStepMs;
    this.state.users[ADMIN_USER_ID] = { id: ADMIN_USER_ID, username: 'admin', email: 'admin@emulator.invalid', admin: true };
    this.state.tokens[this.adminDigest] = { id: 'at-admin', kind: 'user', userId: ADMIN_USER_ID };
  }
}

function withHeaders(res: EmuResponse, headers: Record<string, string>): EmuResponse {
  return { ...res, headers: { ...(res.headers ?? {}), ...headers } };
}
