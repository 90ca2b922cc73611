import { timingSafeEqual } from 'crypto';
import { ApiEmulator, BodyError, EmuRequest, EmuResponse, json, parseJsonBody } from '../../core/emulator/types';
import { Barrier } from './barrier';
import { Engine } from './engine';
import { ENGINE_FACTORIES } from './engines';
import { PUSH_MFA_PATH, PushMfaMethods } from './push-mfa';
import { errors, notFound, objectBody, RequestError } from './responses';
import { sysHealth } from './sys-health';

/** Options of the secrets service emulator. */
export interface SecretsEmulatorOptions {
  /** The root token: the only token accepted, in `X-Secrets-Token`. */
  readonly rootToken: string;
  /** Mount path -> engine type. @default { secret: 'kv' } */
  readonly mounts?: Record<string, string>;
}


interface Mount {
  readonly type: string;
  readonly engine: Engine;
}

/** The serialised state: engine type and sealed engine state per mount (`state`: unsealed, accepted on restore). */
interface SecretsSnapshot {
  mounts: Record<string, { type: string; sealed?: string; state?: unknown }>;
  /** Sealed push-MFA methods and login enforcements. */
  identity?: string;
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

/**
 * The secrets service API under `/v1`: engines mounted at paths (a key-value version 2 engine
 * at `secret` by default), routed by the longest mount prefix. Every request needs the root
 * token in `X-Secrets-Token` (403 `{"errors":["permission denied"]}` otherwise).
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

  constructor(options: SecretsEmulatorOptions) {
    this.rootToken = options.rootToken;
    this.barrier = new Barrier(options.rootToken);
    for (const [path, type] of Object.entries(options.mounts ?? DEFAULT_MOUNTS)) this.mount(path, type);
  }

  public async handle(req: EmuRequest): Promise<EmuResponse> {
    const health = sysHealth(req);
    if (health) return health;
    if (!this.authorised(req) && !(req.path.startsWith('/v1/') && this.callerTokens.has(req.headers['x-secrets-token'] ?? ''))) {
      return errors(403, 'permission denied');
    }
    try {
      if (req.path === '/__admin' || req.path.startsWith('/__admin/')) return this.admin(req);
      if (!req.path.startsWith('/v1/')) return notFound();
      const mfa = this.routePushMfa(req);
      if (mfa) return mfa;
      return await this.route(req);
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
    const out: SecretsSnapshot = { mounts: {} };
    for (const [path, m] of this.mounts) out.mounts[path] = { type: m.type, sealed: this.barrier.seal(m.engine.snapshot()) };
    out.identity = this.barrier.seal(this.pushMfa.snapshot());
    return out;
  }

  public restore(data: unknown): void {
    const snap = data as SecretsSnapshot | undefined;
    if (!snap?.mounts) return;
    this.pushMfa.restore(snap.identity !== undefined ? this.barrier.open(snap.identity) : undefined);
    this.mounts = new Map();
    for (const [path, m] of Object.entries(snap.mounts)) {
      this.mount(path, m.type);
      this.mounts.get(path)!.engine.restore(m.sealed !== undefined ? this.barrier.open(m.sealed) : m.state);
    }
  }

  public async close(): Promise<void> {
    for (const m of this.mounts.values()) await m.engine.close?.();
  }

  private authorised(req: EmuRequest): boolean {
    const given = Buffer.from(req.headers['x-secrets-token'] ?? '');
    const want = Buffer.from(this.rootToken);
    return given.length === want.length && timingSafeEqual(given, want);
  }

  private mount(path: string, type: string): void {
    const clean = path.replace(/^\/+|\/+$/g, '');
    const factory = ENGINE_FACTORIES[type];
    if (!factory) throw new RequestError(400, `unknown engine type "${type}"`);
    if (!clean) throw new RequestError(400, 'mount path is empty');
    if (this.mounts.has(clean)) throw new RequestError(400, `path is already in use at ${clean}/`);
    this.mounts.set(clean, { type, engine: factory(clean) });
  }

  private route(req: EmuRequest): EmuResponse | Promise<EmuResponse> {
    const rest = req.path.slice('/v1/'.length);
    let best: string | undefined;
    for (const path of this.mounts.keys()) {
      if ((rest === path || rest.startsWith(`${path}/`)) && (!best || path.length > best.length)) best = path;
    }
    if (!best) return errors(404, `no handler for route "${rest}". route entry not found.`);
    const isList = req.method === 'LIST' || (req.method === 'GET' && req.query.get('list') === 'true');
    const method = isList ? 'LIST' : req.method === 'PUT' ? 'POST' : req.method;
    return this.mounts.get(best)!.engine.handle({
      req, method, mount: best, subPath: rest.slice(best.length + 1), body: parseJsonBody(req),
    });
  }

  /** `/v1/identity/mfa/method/pushmfa[/<id>]`, or undefined for any other path. */
  private routePushMfa(req: EmuRequest): EmuResponse | undefined {
    const rest = req.path.slice('/v1/'.length).replace(/\/+$/, '');
    if (rest !== PUSH_MFA_PATH && !rest.startsWith(`${PUSH_MFA_PATH}/`)) return undefined;
    const isList = req.method === 'LIST' || (req.method === 'GET' && req.query.get('list') === 'true');
    const method = isList ? 'LIST' : req.method === 'PUT' ? 'POST' : req.method;
    return this.pushMfa.handle(method, rest.slice(PUSH_MFA_PATH.length + 1), parseJsonBody(req));
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
      return { status: 204 };
    }
    if (req.method === 'DELETE') {
      this.mounts.delete(path.replace(/^\/+|\/+$/g, ''));
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
