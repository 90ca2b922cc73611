import { HttpClient } from '../http/http-client';
import { ApiName } from '../model';
import type { KindSchema } from '../schema/kind-schema';

export type { ApiName };

/** A JSON value of a spec once secrets and references are resolved. */
export type Spec = Record<string, unknown>;

/**
 * What a kind's requests need of its API's token, in its domain's own terms (the secrets service's ACL
 * paths and capabilities, a platform permission), from the kind's spec. Declared beside the handler, so
 * that a kind is self-contained; core never reads it: the domain that prints and checks its API's policy
 * collects it from the registry (`declaredPermissions`) and gives it its type (a function of the spec for
 * the secrets service's paths, a record of texts and checks for the platform's permissions).
 */
export type PermissionsOf = ((spec: Spec) => unknown) | { readonly [what: string]: unknown };

/** What a handler may use while it works on one object. */
export interface HandlerContext {
  /** The construct address (`prod/org`), for error messages. */
  readonly address: string;
  /** The HTTP client of the handler's API, authenticated by its provider. */
  readonly http: HttpClient;
  /**
   * The version the plan observed (see `Observed.version`): a write that can name a version names
   * this one, so that a writer after the plan is never overwritten. Undefined when the plan saw none.
   */
  readonly expectedVersion?: number;
  /**
   * A create of an object converge managed that was deleted outside it: what remains under its
   * identity (a KV key whose versions are deleted) is converge's, and may be written on top of.
   */
  readonly recreate?: boolean;
}

/** An object as the API returns it, shaped like the spec. */
export interface Observed {
  /**
   * Managed fields as the API returns them, in the shape of the spec. A field the API never
   * returns (a write-only secret) is left out: the engine compares its HMAC instead.
   */
  readonly fields: Spec;
  /** Server-assigned attributes other constructs may reference (`id`, `external-id`, …). */
  readonly outputs?: Record<string, unknown>;
  /**
   * The object's canonical identity when the id it was read by is another spelling of it
   * (an agent pool read by `<organization>/<name>` is `apool-…`): moves and imports compare these.
   */
  readonly id?: string;
  /**
   * The version a write must name to succeed only if nobody wrote in between (a KV secret's
   * `current_version`, a mesh entry's ModifyIndex). Kept in the plan, so that apply writes
   * against what the plan saw.
   */
  readonly version?: number;
  /** What the plan should say about the object (a field the server does not keep), shown with its line. */
  readonly notes?: string[];
}

/** An object a plan is about to read, offered to `prefetch`. */
export interface PrefetchWant {
  /** Its identity (from state, or the natural key of a new object). */
  readonly id: string;
  /** The app's spec (secrets resolved, no references). */
  readonly desired: Spec;
  /** What the last apply recorded; undefined for an object converge does not manage yet. */
  readonly prior?: PriorRecord;
}

/** An existing object that may be the one an interrupted create made. */
export interface Candidate {
  readonly id: string;
  /** When the API created it (ISO 8601), if the API says. */
  readonly createdAt?: string;
}

/** What create or update tells the engine. */
export interface Written {
  /** The identity to keep in state (natural key or server-assigned id). */
  readonly id: string;
  readonly outputs?: Record<string, unknown>;
  /** Outputs that are secrets (a generated barcode, a token): kept encrypted in state. */
  readonly sensitiveOutputs?: Record<string, unknown>;
}

/**
 * A create that made the object and then failed on a later write (a KV key's data written, its metadata
 * refused): the object is converge's. The applier keeps the intent with the object's identity, so that
 * the next run adopts what this create made and finishes it, instead of finding an object it does not manage.
 */
export class IncompleteCreate extends Error {
  /**
   * @param id the identity of the object made
   * @param cause the failure of the later write (its message is kept: status and the API's words)
   * @param made what was made, in words (`the key's data was written (version 1)`)
   */
  constructor(public readonly id: string, public readonly cause: Error, made: string) {
    super(`${cause.message} (${made}; the next apply finishes it)`);
    this.name = 'IncompleteCreate';
  }
}

/** One changed field of a plan. */
export interface FieldChange {
  /** Dotted path into the spec, e.g. `data.password`. */
  readonly path: string;
  readonly before?: unknown;
  readonly after?: unknown;
  /** True when either side is a secret: values are never shown. */
  readonly sensitive: boolean;
  /** A sensitive field that had no value before (`before`/`after` are never kept for it). */
  readonly added?: boolean;
  /** A sensitive field that has no value after. */
  readonly removed?: boolean;
  /** True when this field cannot change in place. */
  readonly replace: boolean;
  /** True when the value is not known until a dependency is applied. */
  readonly unknown?: boolean;
}

/** What the engine knows of an object from the last apply. */
export interface PriorRecord {
  readonly id: string;
  readonly spec: Spec;
  readonly outputs: Record<string, unknown>;
}

/**
 * The lifecycle of one resource kind, written once and used by plan, apply, destroy,
 * refresh and import. Specs passed in are resolved (secrets in clear, references filled).
 */
export interface ResourceHandler {
  /** `platform.Organization`, `secrets.KvSecret`, … (the construct's kind). */
  readonly kind: string;
  readonly api: ApiName;
  /** The kind's fields, declared once (`lib/core/schema`); `replaceFields` and `sensitiveFields` derive from it. */
  readonly schema?: KindSchema;
  /** Top-level spec fields whose change needs the object replaced. */
  readonly replaceFields?: readonly string[];
  /**
   * Top-level spec fields whose values are always masked in plans and output, even the parts
   * given in plain text (a KV secret's `data`: a key added outside converge may hold a secret).
   */
  readonly sensitiveFields?: readonly string[];
  /** A warning the plan prints when the object is deleted or replaced. */
  readonly destroyWarning?: string;
  /** A warning the plan prints when the object, deleted outside converge, is created again (a new key: devices to re-enrol). */
  readonly recreateWarning?: string;
  /** Identity from the desired spec alone (natural key), for adoption after a crash; undefined when server-assigned. */
  naturalId(spec: Spec): string | undefined;
  /**
   * Existing objects a spec whose identity the server assigns may have made (same name in the same
   * parent): after a crash, converge adopts only a single one created at or after its intent.
   * An empty list when the parent does not exist.
   */
  find?(ctx: HandlerContext, spec: Spec): Promise<Candidate[]>;
  /**
   * True when the API refuses two objects with the same `find` key (agent pool and workspace names):
   * a candidate without a creation time is then adoptable after a crash.
   */
  readonly uniqueFindKey?: boolean;
  /**
   * True for settings that always exist (a KV mount's configuration, with its defaults): nobody
   * creates them, so a new construct takes them over instead of reporting a conflict, and deleting
   * resets them to their defaults.
   */
  readonly alwaysExists?: boolean;
  /**
   * Outputs that change when the object is updated (a KV secret's `version`): references to them
   * are unknown until the update is applied.
   */
  readonly outputsChangedByUpdate?: readonly string[];
  /**
   * Reads an object; undefined when it is absent (404). `desired` is the app's spec when there is
   * one; `prior` what the last apply recorded, so that a field whose content cannot have changed
   * since (a KV version's data) need not be read again: left out, it is compared with state.
   */
  read(ctx: HandlerContext, id: string, desired?: Spec, prior?: PriorRecord): Promise<Observed | undefined>;
  /**
   * For an object `read` found absent: what still holds its identity, in words (a KV key whose latest
   * version is deleted: `its latest version is deleted`), else undefined. Such an object stays
   * converge's: refresh keeps its record, import takes it, destroy deletes it, and apply creates it again
   * on top (`HandlerContext.recreate`).
   */
  remains?(ctx: HandlerContext, id: string, spec?: Spec): Promise<string | undefined>;
  create(ctx: HandlerContext, spec: Spec): Promise<Written>;
  update(ctx: HandlerContext, id: string, spec: Spec, changes: readonly FieldChange[], prior: PriorRecord): Promise<Written>;
  /** Deletes; an object already gone is success. */
  delete(ctx: HandlerContext, id: string, prior: PriorRecord): Promise<void>;
  /**
   * Learns about many objects of this kind at once, where the API answers them in fewer requests
   * than one read each (a list of whole objects, a folder's keys). Answers, by id, the object as
   * `read` would (a known absence as null); ids it leaves out are read one by one. Choose by
   * counting: a small stack in a big account is cheaper read object by object.
   */
  prefetch?(ctx: HandlerContext, wanted: readonly PrefetchWant[]): Promise<Map<string, Observed | null>>;
  /** Checks and normalises an id given to `converge import`. */
  importId?(id: string): string;
  /** What plan, apply and destroy of the kind need of the token (see `PermissionsOf`). */
  readonly permissions?: PermissionsOf;
  /** What the lookup of an existing object of the kind (`lookup:<kind>`, spec `{ id, known }`) needs of the token. */
  readonly lookupPermissions?: PermissionsOf;
}

/** A data source kind: only reads, at plan time. */
export interface DataSourceHandler {
  readonly kind: string;
  readonly api: ApiName;
  /** The data source's fields and outputs, declared once (`lib/core/schema`). */
  readonly schema?: KindSchema;
  read(ctx: HandlerContext, spec: Spec): Promise<Record<string, unknown>>;
  /** Output keys that are secrets (kept encrypted in state, masked in output). */
  readonly sensitiveOutputs?: readonly string[];
  /**
   * The outputs as two reads are compared (a saved plan's read with the apply's, a read with state):
   * without what changes with time alone, no write involved (a countdown `ttl`, an agent's ping time).
   * Undefined: every output counts.
   */
  stableForm?(outputs: Record<string, unknown>): Record<string, unknown>;
  /**
   * For credentials the service generates on each read (a dynamic database user, a token): when the
   * outputs kept in state were issued (ms since the epoch) and when their lease ends. While more than a
   * third of the lease is left, a plan uses the kept credentials instead of generating new ones, so
   * that the plan after an apply is a no-op and nobody's credentials are replaced under them.
   * Undefined (for outputs without a lease): read again.
   */
  leaseOf?(outputs: Record<string, unknown>): { issuedAt: number; expiresAt: number } | undefined;
  /**
   * Whether the lease of credentials kept in state still lives (one request): a plan that would keep
   * them issues new ones when it was revoked outside converge.
   */
  leaseAlive?(ctx: HandlerContext, outputs: Record<string, unknown>): Promise<boolean>;
  /**
   * Ends what credentials kept in state give (revokes their lease, checks an account in), when the data
   * source leaves the app, its stack is destroyed or it is replaced: answers what it did, in words,
   * undefined when there was nothing to end. `outputs` hold the sensitive ones too.
   */
  release?(ctx: HandlerContext, outputs: Record<string, unknown>): Promise<string | undefined>;
  /** What `release` will do, for the plan; undefined when nothing. */
  releaseNote?(outputs: Record<string, unknown>): string | undefined;
  /** What a read (and a release) of the kind needs of the token (see `PermissionsOf`). */
  readonly permissions?: PermissionsOf;
}
