import { timingSafeEqual } from 'crypto';
import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { ChangeTracker } from '../../core/emulator-kit/change-tracker';
import { ApiEmulator, BodyError, EmuRequest, EmuResponse, json, parseJsonBody } from '../../core/emulator-kit/types';
import { tokenOfRequest } from '../../core/http/api-profile';
import { SECRETS_API_PROFILE } from '../api-profile';
import { capabilitiesSelf, CAPABILITIES_SELF } from './acl/sys-capabilities';
import { AccessControl, Caller, DEFAULT_TOKEN_TTL_S } from './acl/access-control';
import { Capability } from './acl/policy-parser';
import { Barrier } from './barrier';
import { Engine } from './engine';
import { ENGINE_FACTORIES } from './engines';
import { RequestTarget, requestTarget } from './request-target';
import { PUSH_MFA_PATH, PushMfaMethods } from '../push-mfa/push-mfa.emulator';
import { errors, notFound, objectBody, RequestError } from './responses';
import { sysHealth } from './sys-health';
import { sysLeases } from './sys-leases';
import { defaultMountMeta, MountMeta, MountTable, SYS_AUTH, SYS_MOUNTS, sysMounts } from '../sys/sys.emulator';
import { AUTH_ENGINE_FACTORIES } from './engines';

/** Options of the secrets service emulator. */
export interface SecretsEmulatorOptions {
  /** The root token (in `X-Secrets-Token`, `X-Vault-Token` or `Authorization: Bearer`). */
  readonly rootToken: string;
  /** Mount path -> engine type. @default { secret: 'kv' } */
  readonly mounts?: Record<string, string>;
  /**
   * What time it is for the engines: lease expiries, `delete_version_after`, rotations and
   * check-outs wait on it (a test passes a clock it moves by hand). @default the system clock
   */
  readonly clock?: Clock;
}


interface Mount {
  readonly type: string;
  readonly engine: Engine;
  /** Description, lease TTLs, options, accessor: what `sys/mounts` keeps besides the engine. */
  readonly meta: MountMeta;
}

/** The serialised state: engine type and sealed engine state per mount (`state`: unsealed, accepted on restore). */
interface SecretsSnapshot {
  mounts: Record<string, { type: string; sealed?: string; state?: unknown; meta?: MountMeta }>;
  /** Sealed push-MFA methods and login enforcements. */
  identity?: string;
  /** Sealed ACL policies and issued tokens. */
  access?: string;
}

/** Engines mounted when no mounts are given: path -> engine type. */
export const DEFAULT_MOUNTS: Record<string, string> = {
  secret: 'kv',
  totp: 'totp',
  platform: 'platform',
  mesh: 'mesh',
  database: 'database',
  directory: 'directory',
};

const READ_METHODS = new Set(['GET', 'LIST', 'HEAD']);
/** Where auth methods are mounted (`sys/auth/<path>` mounts one at `auth/<path>`). */
const AUTH_PREFIX = 'auth/';

/**
 * The token of a request: `X-Secrets-Token` (the spec's header), else what the real service reads,
 * `X-Vault-Token`, else `Authorization: Bearer <token>`; "" when none.
 */
function requestToken(req: EmuRequest): string {
  return tokenOfRequest(SECRETS_API_PROFILE.tokenHeaders, req.headers);
}

/**
 * The secrets service API under `/v1`: engines mounted at paths (a key-value version 2 engine
 * at `secret` by default), routed by the longest mount prefix. Every request needs a token in
 * `X-Secrets-Token` (or, as the real service reads it, `X-Vault-Token` or `Authorization: Bearer`): the root token (every capability), or one issued by `auth/token/create`
 * whose ACL policies (`sys/policies/acl/<name>`, see `acl/`) grant the capability the request
 * needs on its path (403 `{"errors":["permission denied"]}` otherwise).
 *
 * Conventions of the real service: errors are `{"errors":[...]}`, a plain not-found is 404
 * `{"errors":[]}`, an unsupported method on a known path 405, a bad request 400, a write with
 * nothing to return 204 without a body. `LIST` and `GET ?list=true` are the same; `PUT` and
 * `POST` are the same.
 *
 * Admin interface (also needs the root token), for tests and the emulator host:
 * - `GET /__admin/mounts` -> `{"mounts":{"<path>":{"type":"kv"}}}`
 * - `POST /__admin/mounts/<path>` with `{"type":"kv"}` -> 204 (mounts a new engine; 400 when the
 *   type is unknown or the path is taken)
 * - `DELETE /__admin/mounts/<path>` -> 204 (unmounts and drops the engine's data)
 * - `POST /__admin/tokens` with `{"token":"…"}` -> 204: one more token accepted below `/v1` (not on
 *   `/__admin`), a second caller (the directory library tells borrowers apart by token); not persisted
 * - `/__admin/directory/<mount>/accounts[/<name>]` and `/__admin/directory/<mount>/settings`: the
 *   simulated directory of a directory engine (see `DirectoryEngine.admin`)
 * - `GET /__admin/mfa/enforcements` -> `{"enforcements":[{"name","mfa_method_ids"}]}`;
 *   `POST /__admin/mfa/enforcements` with `{"name":"…","mfa_method_ids":["<uuid>"]}` -> 204 (seeds a
 *   login enforcement, which keeps its push-MFA methods from being deleted; 400 for an unknown id);
 *   `DELETE /__admin/mfa/enforcements/<name>` -> 204
 *
 * Push-MFA methods live at `/v1/identity/mfa/method/pushmfa` (see `push-mfa.ts`), outside any mount.
 *
 * `snapshot()` seals each engine's state (AES-GCM under a key derived from the root token), as the
 * real service's storage barrier does, so the data directory never holds a secret in clear.
 */
export class SecretsEmulator implements ApiEmulator {
  public readonly name = 'secrets';
  private mounts = new Map<string, Mount>();
  private readonly rootToken: string;
  private readonly barrier: Barrier;
  /** Further tokens accepted below `/v1` (admin `POST /__admin/tokens`). */
  private readonly callerTokens = new Set<string>();
  private readonly pushMfa = new PushMfaMethods();
  private tracker?: ChangeTracker;
  private onChange?: () => void;
  /** Scopes whose engine copies the state it is given: journaled whole (their state is small). */
  private readonly coarse = new Set<string>();
  /** Mounts were added or removed: the next journal entry is a whole snapshot. */
  private structureChanged = false;
  private readonly access = new AccessControl();
  private readonly clock: Clock;

  constructor(options: SecretsEmulatorOptions) {
    this.rootToken = options.rootToken;
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.barrier = new Barrier(options.rootToken);
    for (const [path, type] of Object.entries(options.mounts ?? DEFAULT_MOUNTS)) this.mount(path, type);
  }

  public async handle(req: EmuRequest): Promise<EmuResponse> {
    const health = sysHealth(req, this.clock);
    if (health) return health;
    if (this.tracker && this.coarse.size > 0 && this.mutates(req)) {
      const scope = this.scopeOf(req);
      if (scope && this.coarse.has(scope)) this.tracker.markScope(scope);
    }
    const login = this.loginTarget(req);
    if (login) return this.routeLogin(req, login);
    const isAdmin = req.path === '/__admin' || req.path.startsWith('/__admin/');
    const caller = isAdmin ? (this.authorised(req) ? { root: true as const, token: '' } : undefined) : this.caller(req);
    if (!caller) return errors(403, 'permission denied');
    try {
      if (isAdmin) return this.admin(req);
      if (!req.path.startsWith('/v1/')) return notFound();
      // Normalised once: the ACL checks the very operation and path the engines serve.
      const target = requestTarget(req);
      if (!target) return errors(400);
      if (!this.permitted(caller, target)) return errors(403, 'permission denied');
      if (this.access.serves(target.path)) return this.access.handle(caller, target.operation, target.path, parseJsonBody(req));
      if (target.path === CAPABILITIES_SELF) {
        return capabilitiesSelf(target.operation, parseJsonBody(req), (p) => (caller.root ? 'root' : this.access.capabilities(caller, p, false)));
      }
      if (target.path === SYS_MOUNTS || target.path.startsWith(`${SYS_MOUNTS}/`)) {
        return sysMounts(this.mountTable(), target.operation, target.path, parseJsonBody(req));
      }
      if (target.path === SYS_AUTH || target.path.startsWith(`${SYS_AUTH}/`)) {
        return sysMounts(this.mountTable(AUTH_PREFIX), target.operation, target.path, parseJsonBody(req), SYS_AUTH);
      }
      if (target.path.startsWith('sys/leases/')) {
        const answer = await sysLeases(target.path.slice('sys/leases/'.length), target.operation, parseJsonBody(req), (id) => this.leasesOf(id), this.clock.now());
        if (answer) return answer;
      }
      const mfa = this.routePushMfa(req, target);
      if (mfa) return mfa;
      return await this.route(req, target, caller.displayName ?? 'root');
    } catch (e) {
      if (e instanceof RequestError) return errors(e.status, e.message);
      if (e instanceof BodyError) return errors(400, `failed to parse JSON input: ${e.message}`);
      throw e;
    }
  }

  public mutates(req: EmuRequest): boolean {
    if (!READ_METHODS.has(req.method)) return true;
    // Some reads change state (credentials that open a lease, a rotation a read triggers): ask the engine.
    const rest = req.path?.startsWith('/v1/') ? req.path.slice('/v1/'.length) : '';
    for (const [path, m] of this.mounts) {
      if (rest.startsWith(`${path}/`) && m.engine.mutatesOnRead?.(rest.slice(path.length + 1))) return true;
    }
    return false;
  }

  public snapshot(): unknown {
    const raw = <T>(v: T): T => (this.tracker ? this.tracker.raw(v) : v);
    const out: SecretsSnapshot = { mounts: {} };
    for (const [path, m] of this.mounts) out.mounts[path] = { type: m.type, sealed: this.barrier.seal(raw(m.engine.snapshot())), meta: m.meta };
    out.identity = this.barrier.seal(raw(this.pushMfa.snapshot()));
    out.access = this.barrier.seal(raw(this.access.snapshot()));
    return out;
  }

  public error(status: number, message: string): EmuResponse {
    return errors(status, message);
  }

  public restore(data: unknown): void {
    const snap = data as SecretsSnapshot | undefined;
    if (!snap?.mounts) return;
    this.pushMfa.restore(snap.identity !== undefined ? this.barrier.open(snap.identity) : undefined);
    this.trackScope('identity');
    this.access.restore(snap.access !== undefined ? this.barrier.open(snap.access) : undefined);
    this.trackScope('access');
    for (const path of this.mounts.keys()) this.tracker?.untrack(`mount:${path}`);
    this.mounts = new Map();
    for (const [path, m] of Object.entries(snap.mounts)) {
      this.mount(path, m.type, m.meta);
      this.mounts.get(path)!.engine.restore(m.sealed !== undefined ? this.barrier.open(m.sealed) : m.state);
      this.trackScope(`mount:${path}`);
    }
  }

  public trackChanges(onChange: () => void): void {
    this.tracker = new ChangeTracker(onChange);
    this.onChange = onChange;
    this.trackScope('identity');
    this.trackScope('access');
    for (const path of this.mounts.keys()) this.trackScope(`mount:${path}`);
  }

  /** One sealed entry per batch: the changed units (or whole small engines), never a secret in clear. */
  public takeChanges(): unknown[] | undefined {
    if (!this.tracker) return [];
    if (this.structureChanged) {
      this.structureChanged = false;
      this.tracker.take();
      return undefined;
    }
    const units: { s: string; p: string[]; v?: unknown; d?: boolean }[] = [];
    const whole = new Set<string>();
    for (const c of this.tracker.take()) {
      if (this.coarse.has(c.scope) || c.path.length === 0) {
        if (!whole.has(c.scope)) units.push({ s: c.scope, p: [], v: this.holder(c.scope)?.snapshot() });
        whole.add(c.scope);
      } else {
        units.push({ s: c.scope, p: c.path, v: c.value, d: c.deleted });
      }
    }
    return units.length ? [this.barrier.seal(units)] : [];
  }

  public applyChanges(changes: unknown[]): void {
    for (const sealed of changes) {
      for (const u of this.barrier.open(sealed as string) as { s: string; p: string[]; v?: unknown; d?: boolean }[]) {
        const holder = this.holder(u.s);
        if (!holder) continue;
        if (u.p.length === 0) {
          holder.restore(u.v);
          this.trackScope(u.s);
        } else {
          const raw = (this.tracker ? this.tracker.raw(holder.snapshot()) : holder.snapshot()) as Record<string, unknown>;
          ChangeTracker.applyChange(raw, u.p, u.v, !!u.d);
        }
      }
    }
  }

  /**
   * Resolves once the work of every engine timer fired so far has finished (a lease revoked at
   * expiry, a scheduled rotation): a test moves its clock past an expiry, then awaits this.
   */
  public async settled(): Promise<void> {
    for (const m of this.mounts.values()) await m.engine.settled?.();
  }

  public async close(): Promise<void> {
    for (const m of this.mounts.values()) await m.engine.close?.();
  }

  /** A mount added or removed: the journal writes a whole snapshot next. */
  private mountsChanged(path: string): void {
    if (!this.tracker) return;
    if (this.mounts.has(path)) this.trackScope(`mount:${path}`);
    this.structureChanged = true;
    this.onChange?.();
  }

  /** What holds a tracked scope's state: a mount's engine or the push-MFA methods (`identity`). */
  private holder(scope: string): { snapshot(): unknown; restore(data: unknown): void } | undefined {
    if (scope === 'identity') return this.pushMfa;
    if (scope === 'access') return this.access;
    return this.mounts.get(scope.slice('mount:'.length))?.engine;
  }

  /**
   * Hands the holder a tracked proxy of its own state. An engine that keeps the object it is given
   * is tracked per unit (`keys/<path>` of a KV engine); one that copies it (most keep a few
   * records and timers) is journaled whole whenever a request to it may have changed it.
   */
  private trackScope(scope: string): void {
    const holder = this.holder(scope);
    if (!this.tracker || !holder) return;
    const proxy = this.tracker.track(scope, holder.snapshot() as object);
    holder.restore(proxy);
    if (holder.snapshot() === proxy) this.coarse.delete(scope);
    else this.coarse.add(scope);
  }

  /** The scope a request may change, for engines journaled whole. */
  private scopeOf(req: EmuRequest): string | undefined {
    const rest = req.path.startsWith('/v1/') ? req.path.slice('/v1/'.length) : '';
    if (rest.startsWith(PUSH_MFA_PATH) || req.path.startsWith('/__admin/mfa/')) return 'identity';
    if (rest.startsWith('sys/leases/')) {
      let id: unknown;
      try { id = objectBody(parseJsonBody(req)).lease_id; } catch { id = undefined; }
      const lease = typeof id === 'string' ? id : rest.replace(/^sys\/leases\/\w+\/?/, '');
      const mount = [...this.mounts.keys()].filter((p) => lease.startsWith(`${p}/`)).sort((a, b) => b.length - a.length)[0];
      return mount && `mount:${mount}`;
    }
    // Policies and tokens (sys/policies/acl, auth/token/…).
    if ((rest && this.access.serves(rest))) return 'access';
    const sub = rest || (req.path.startsWith('/__admin/directory/') ? req.path.slice('/__admin/directory/'.length) : '');
    let best: string | undefined;
    for (const path of this.mounts.keys()) {
      if ((sub === path || sub.startsWith(`${path}/`)) && (!best || path.length > best.length)) best = path;
    }
    return best && `mount:${best}`;
  }

  private authorised(req: EmuRequest): boolean {
    const given = Buffer.from(requestToken(req));
    const want = Buffer.from(this.rootToken);
    return given.length === want.length && timingSafeEqual(given, want);
  }

  /** The caller a request's token stands for: root (the root token, admin-added callers) or an issued token; undefined: refused. */
  private caller(req: EmuRequest): Caller | undefined {
    const token = requestToken(req);
    if (this.authorised(req) || this.callerTokens.has(token)) return { root: true, token };
    return this.access.caller(token);
  }

  /** The leases of the engine mounted where a lease id starts (its longest mount). */
  private leasesOf(leaseId: string) {
    let best: string | undefined;
    for (const path of this.mounts.keys()) {
      if (leaseId.startsWith(`${path}/`) && (!best || path.length > best.length)) best = path;
    }
    return best === undefined ? undefined : this.mounts.get(best)!.engine.leases;
  }

  /**
   * The ACL check: the capability a request needs (read, list, delete, patch; for a write,
   * `create` when the engine's existence check finds nothing there, else `update`) must be
   * granted on its path by the caller's policies.
   */
  private permitted(caller: Caller, target: RequestTarget): boolean {
    if (caller.root) return true;
    const { path: rest, operation: method } = target;
    const needed: Record<string, Capability> = { GET: 'read', HEAD: 'read', LIST: 'list', DELETE: 'delete', PATCH: 'patch' };
    const capability = needed[method] ?? (this.existsForWrite(rest) === false ? 'create' : 'update');
    const held = this.access.capabilities(caller, rest, method === 'LIST');
    // As on the real service, enabling, reading, tuning and disabling an auth method needs `sudo` too.
    if (/^sys\/auth\/./.test(rest) && !held.has('sudo')) return false;
    return held.has(capability);
  }

  /** The existence check of the engine a write goes to: false (a create), true, or undefined (no check: an update). */
  private existsForWrite(rest: string): boolean | undefined {
    let best: string | undefined;
    for (const path of this.mounts.keys()) {
      if (rest.startsWith(`${path}/`) && (!best || path.length > best.length)) best = path;
    }
    return best === undefined ? undefined : this.mounts.get(best)!.engine.exists?.(rest.slice(best.length + 1));
  }

  /**
   * The mount table as `sys/mounts` serves it (secrets engines), or with `prefix` `auth/` as
   * `sys/auth` does (auth methods, mounted at `auth/<path>` among the engines).
   */
  private mountTable(prefix = ''): MountTable {
    const auth = prefix !== '';
    return {
      reserved: !auth,
      types: () => Object.keys(auth ? AUTH_ENGINE_FACTORIES : ENGINE_FACTORIES),
      entries: () => [...this.mounts].filter(([p]) => p.startsWith(AUTH_PREFIX) === auth)
        .map(([p, m]) => [p.slice(prefix.length), { type: m.type, meta: m.meta }]),
      get: (p) => this.mounts.get(prefix + p),
      add: (p, type, meta) => {
        this.mount(prefix + p, type, meta);
        this.mountsChanged(prefix + p);
      },
      remove: (p) => this.unmount(prefix + p),
      // A tune changes the table, not the engine: the next journal entry is a whole snapshot.
      changed: () => {
        if (!this.tracker) return;
        this.structureChanged = true;
        this.onChange?.();
      },
    };
  }

  /** Unmounts and drops the engine's data. */
  private unmount(clean: string): void {
    this.tracker?.untrack(`mount:${clean}`);
    void this.mounts.get(clean)?.engine.close?.();
    this.mounts.delete(clean);
    this.mountsChanged(clean);
  }

  private mount(path: string, type: string, meta?: MountMeta): void {
    const clean = path.replace(/^\/+|\/+$/g, '');
    const factory = clean.startsWith(AUTH_PREFIX) ? AUTH_ENGINE_FACTORIES[type] : ENGINE_FACTORIES[type];
    if (!factory) throw new RequestError(400, `unknown engine type "${type}"`);
    if (!clean) throw new RequestError(400, 'mount path is empty');
    if (this.mounts.has(clean)) throw new RequestError(400, `path is already in use at ${clean}/`);
    this.mounts.set(clean, { type, engine: factory(clean, this.clock), meta: meta ?? defaultMountMeta(type) });
  }

  private route(req: EmuRequest, target: RequestTarget, displayName: string): EmuResponse | Promise<EmuResponse> {
    const rest = target.path;
    let best: string | undefined;
    for (const path of this.mounts.keys()) {
      if ((rest === path || rest.startsWith(`${path}/`)) && (!best || path.length > best.length)) best = path;
    }
    if (!best) return errors(404, `no handler for route "${rest}". route entry not found.`);
    return this.mounts.get(best)!.engine.handle({
      req, method: target.operation, mount: best, subPath: rest.slice(best.length + 1), body: parseJsonBody(req), displayName,
    });
  }

  /**
   * An auth method's login (`POST auth/<mount>/login` on a mounted AppRole method): as on the real
   * service, it needs no token (one given is ignored) and no policy.
   */
  private loginTarget(req: EmuRequest): RequestTarget | undefined {
    if (!req.path.startsWith(`/v1/${AUTH_PREFIX}`) || !/\/login\/?$/.test(req.path)) return undefined;
    const target = requestTarget(req);
    const mount = target && /^(auth\/.+)\/login\/?$/.exec(target.path)?.[1];
    return mount && this.mounts.get(mount)?.type === 'approle' && target.operation === 'POST' ? target : undefined;
  }

  /** Routes a login to its auth method, which may issue a token (journaled with the method's state). */
  private async routeLogin(req: EmuRequest, target: RequestTarget): Promise<EmuResponse> {
    if (this.tracker && this.coarse.has('access')) this.tracker.markScope('access');
    const mount = target.path.replace(/\/login\/?$/, '');
    try {
      return await this.mounts.get(mount)!.engine.handle({
        req, method: target.operation, mount, subPath: 'login', body: parseJsonBody(req),
        issueToken: (g) => this.access.issue({
          policies: [...g.policies.map((p) => p.toLowerCase()), ...(g.noDefaultPolicy ? [] : ['default'])],
          ttl: g.ttl || DEFAULT_TOKEN_TTL_S, displayName: g.displayName, orphan: true, metadata: g.metadata, numUses: g.numUses,
        }),
      });
    } catch (e) {
      if (e instanceof RequestError) return errors(e.status, e.message);
      if (e instanceof BodyError) return errors(400, `failed to parse JSON input: ${e.message}`);
      throw e;
    }
  }

  /** `/v1/identity/mfa/method/pushmfa[/<id>]`, or undefined for any other path. */
  private routePushMfa(req: EmuRequest, target: RequestTarget): EmuResponse | undefined {
    const rest = target.path.replace(/\/+$/, '');
    if (rest !== PUSH_MFA_PATH && !rest.startsWith(`${PUSH_MFA_PATH}/`)) return undefined;
    return this.pushMfa.handle(target.operation, rest.slice(PUSH_MFA_PATH.length + 1), parseJsonBody(req));
  }

  private admin(req: EmuRequest): EmuResponse {
    if (req.path === '/__admin/tokens' && (req.method === 'POST' || req.method === 'PUT')) {
      const token = objectBody(parseJsonBody(req)).token;
      if (typeof token !== 'string' || token === '') return errors(400, 'token is required');
      this.callerTokens.add(token);
      return { status: 204 };
    }
    const dir = /^\/__admin\/directory\/(.+)$/.exec(req.path);
    if (dir) return this.engineAdmin('directory', dir[1], req);
    const enf = /^\/__admin\/mfa\/enforcements(?:\/([^/]+))?\/?$/.exec(req.path);
    if (enf) return this.pushMfa.admin(req.method, enf[1], parseJsonBody(req));
    const m = /^\/__admin\/mounts(?:\/(.+))?\/?$/.exec(req.path);
    if (!m) return notFound();
    const path = m[1];
    if (!path) {
      if (req.method !== 'GET') return errors(405, 'unsupported operation');
      const mounts: Record<string, { type: string }> = {};
      for (const [p, x] of this.mounts) mounts[p] = { type: x.type };
      return json(200, { mounts });
    }
    if (req.method === 'POST' || req.method === 'PUT') {
      const type = objectBody(parseJsonBody(req)).type;
      if (typeof type !== 'string') return errors(400, 'type is required');
      this.mount(path, type);
      this.mountsChanged(path.replace(/^\/+|\/+$/g, ''));
      return { status: 204 };
    }
    if (req.method === 'DELETE') {
      this.unmount(path.replace(/^\/+|\/+$/g, ''));
      return { status: 204 };
    }
    return errors(405, 'unsupported operation');
  }

  /** Routes `/__admin/<type>/<mount>/<rest>` to the admin routes of the engine mounted there (longest mount). */
  private engineAdmin(type: string, rest: string, req: EmuRequest): EmuResponse {
    let best: string | undefined;
    for (const [path, m] of this.mounts) {
      if (m.type === type && rest.startsWith(`${path}/`) && (!best || path.length > best.length)) best = path;
    }
    const engine = best === undefined ? undefined : this.mounts.get(best)!.engine;
    if (!engine?.admin) return notFound();
    return engine.admin(req.method, rest.slice(best!.length + 1), parseJsonBody(req));
  }
}
