/**
 * The contract between the emulator host and each API's emulator.
 * An API emulator is a pure request -> response function over its own in-memory state;
 * the host adds HTTP, latency, faults and persistence around it.
 */

/** A request as an API emulator sees it. */
export interface EmuRequest {
  /** Upper-case method, including non-standard ones such as `LIST`. */
  readonly method: string;
  /** Decoded path without the query string, e.g. `/api/v2/organizations/acme`. */
  readonly path: string;
  /** The path exactly as received (still percent-encoded). */
  readonly rawPath: string;
  readonly query: URLSearchParams;
  /** Header names lower-cased. */
  readonly headers: Record<string, string | undefined>;
  readonly body: Buffer;
}

/** A response from an API emulator. `body` objects are sent as JSON. */
export interface EmuResponse {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** An object or array is serialised as JSON; a string is sent as is; undefined sends no body. */
  readonly body?: unknown;
  /** Content type; defaults to `application/json` for objects. */
  readonly contentType?: string;
}

/** One API emulator (platform, secrets or mesh) mounted by the host on its own port. */
export interface ApiEmulator {
  /** Short name: `platform`, `secrets`, `mesh`. */
  readonly name: string;
  /** Handles one request. May be async (the database engine talks to PostgreSQL). */
  handle(req: EmuRequest): EmuResponse | Promise<EmuResponse>;
  /** Whether a request may have changed state (the host then persists before answering; unused when the API tracks its changes). */
  mutates(req: EmuRequest): boolean;
  /** Serialisable state, written to the data directory. */
  snapshot(): unknown;
  /** Restores a snapshot taken by `snapshot()`. */
  restore(data: unknown): void;
  /**
   * Journal support (optional; without it the host rewrites the whole snapshot per batch of writes).
   * After this call the API reports every change of its state, also from timers, by calling `onChange`.
   */
  trackChanges?(onChange: () => void): void;
  /**
   * The changes since the last call, as JSON values `applyChanges()` takes back on replay; undefined
   * when only a whole snapshot can describe them (a mount added, say).
   */
  takeChanges?(): unknown[] | undefined;
  /** Replays changes returned by `takeChanges()`, on top of `restore()`. */
  applyChanges?(changes: unknown[]): void;
  /** Stops timers (lease expiry, rotations). */
  close?(): void | Promise<void>;
  /**
   * An error answer in this API's own shape, for errors the host answers itself (body too large,
   * too deep, a handler that threw). @default `{"errors":["<message>"]}`
   */
  error?(status: number, message: string): EmuResponse;
}

/** The host's error answer for `api`, in the API's shape. */
export function errorResponse(api: ApiEmulator, status: number, message: string): EmuResponse {
  return api.error ? api.error(status, message) : { status, body: { errors: [message] } };
}

/** Shorthand for a JSON response. */
export function json(status: number, body?: unknown, headers?: Record<string, string>): EmuResponse {
  return { status, body, headers };
}

/** Parses a JSON request body; undefined for an empty body; throws `BodyError` when undecodable. */
export function parseJsonBody(req: EmuRequest): unknown {
  if (req.body.length === 0) return undefined;
  try {
    return JSON.parse(req.body.toString('utf8'));
  } catch (e) {
    throw new BodyError((e as Error).message);
  }
}

/** Thrown by `parseJsonBody` for a body that is not JSON. */
export class BodyError extends Error {}
