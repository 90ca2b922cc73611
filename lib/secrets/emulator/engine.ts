import { Clock } from '../../core/clock';
import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';

/** One request as a mounted engine sees it. */
export interface EngineRequest {
  readonly req: EmuRequest;
  /** `LIST` for both `LIST` and `GET ?list=true`; `POST` for both `POST` and `PUT`; else the request method. */
  readonly method: string;
  /** The mount path, e.g. `secret`. */
  readonly mount: string;
  /** The path below the mount without a leading slash, e.g. `data/app/db` (`""` at the mount root). */
  readonly subPath: string;
  /** The parsed JSON body (undefined when empty). */
  readonly body: unknown;
  /** The calling token's display name, as the real service keeps it (`root`, `token`, `token-<name>`). */
  readonly displayName?: string;
  /**
   * Set on an auth method's `login` only (a request that needs no token): issues the token the login
   * grants and answers its `auth` block.
   */
  readonly issueToken?: (grant: LoginGrant) => Record<string, unknown>;
}

/** What an auth method's login grants: the token's policies (`default` added unless left out), TTL and metadata. */
export interface LoginGrant {
  readonly policies: readonly string[];
  readonly noDefaultPolicy: boolean;
  /** Seconds; 0: the service's default. */
  readonly ttl: number;
  readonly displayName: string;
  readonly metadata: Record<string, string>;
  readonly numUses: number;
}

/**
 * An engine mounted at a path (`kv`, later `database`, `totp`, `directory`, `platform-token`,
 * `mesh-token`). Each engine type lives in its own file and owns its state, which must be
 * JSON-serialisable.
 */
export interface Engine {
  /** Engine type name, e.g. `kv`. */
  readonly type: string;
  /** Answers a request routed to this mount; throws `RequestError` for 4xx with a message. */
  handle(r: EngineRequest): EmuResponse | Promise<EmuResponse>;
  snapshot(): unknown;
  restore(data: unknown): void;
  close?(): void | Promise<void>;
  /** Whether a GET below the mount (path below it) changes state, so that the host persists after it (a read that opens a lease). */
  mutatesOnRead?(subPath: string): boolean;
  /**
   * The existence check of a write below the mount, as the real service's backends have it:
   * false when the object a POST/PUT would write is absent (the caller then needs `create`),
   * true when present (`update`), undefined for paths without one (`update`).
   */
  exists?(subPath: string): boolean | undefined;
  /** Engine-specific admin routes below `/__admin/<type>/<mount>/` (the directory's accounts, say). */
  admin?(method: string, subPath: string, body: unknown): EmuResponse;
  /** The leases the engine issued (credentials, check-outs), looked up, renewed and revoked through `sys/leases/*`. */
  readonly leases?: EngineLeases;
  /** Resolves once the work of the engine's timers fired so far (a lease revoked at expiry, say) has finished. */
  settled?(): Promise<void>;
}

/** A lease as `sys/leases/lookup` tells it (epoch milliseconds). */
export interface EngineLease {
  readonly issuedMs: number;
  readonly expiresMs: number;
  readonly lastRenewalMs?: number;
}

/** What an engine does with the leases it issued; an unknown or expired lease is undefined. */
export interface EngineLeases {
  lookup(id: string): EngineLease | undefined;
  /** Extends the lease to `incrementSeconds` from now (0: the role's default), within its maximum. */
  renew(id: string, incrementSeconds: number): EngineLease | undefined;
  /** Revokes now: what the credential gave stops (a database user dropped, an account checked in); a `RequestError` when it cannot. */
  revoke(id: string): Promise<void>;
}

/** Creates an engine of one type for a mount, telling time by `clock` (its timers wait on it). */
export type EngineFactory = (mount: string, clock: Clock) => Engine;

/** The entry of an engine's table under `key`, an own property only (a name like `constructor` or `__proto__` is absent). */
export function ownEntry<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}
