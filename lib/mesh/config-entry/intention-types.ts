/** What an intention does with a call (or, in a permission, with a matching request). */
export enum IntentionAction {
  /** The call (request) is let through. */
  ALLOW = 'allow',
  /** The call (request) is refused. */
  DENY = 'deny',
}

/** A header an L7 permission matches. Exactly one of `present`, `exact`, `prefix`, `suffix`, `regex`. */
export interface IntentionHeaderMatch {
  /** The header's name. */
  readonly name: string;
  /**
   * The header must be present (any value).
   * @default false
   */
  readonly present?: boolean;
  /**
   * The value the header must equal.
   * @default - not compared exactly
   */
  readonly exact?: string;
  /**
   * The value must start with this.
   * @default - not compared by prefix
   */
  readonly prefix?: string;
  /**
   * The value must end with this.
   * @default - not compared by suffix
   */
  readonly suffix?: string;
  /**
   * The value must match this regular expression (RE2).
   * @default - not compared by expression
   */
  readonly regex?: string;
  /**
   * Inverts the match: the permission applies when the header does not match.
   * @default false
   */
  readonly invert?: boolean;
}

/** The HTTP criteria of an L7 permission (all must hold; at least one is given). */
export interface IntentionHttpMatch {
  /**
   * The exact path, starting with `/` (at most one of `pathExact`, `pathPrefix`, `pathRegex`).
   * @default - any path
   */
  readonly pathExact?: string;
  /**
   * A path prefix, starting with `/`.
   * @default - any path
   */
  readonly pathPrefix?: string;
  /**
   * A regular expression (RE2) the path must match.
   * @default - any path
   */
  readonly pathRegex?: string;
  /**
   * The HTTP methods the permission applies to (upper case: `GET`, `POST`, …; each once).
   * @default [] - every method
   */
  readonly methods?: string[];
  /**
   * Headers the request must match.
   * @default []
   */
  readonly header?: IntentionHeaderMatch[];
}

/** An L7 permission: an action for the requests that match. The first that matches decides. */
export interface IntentionPermission {
  /** What to do with a matching request. */
  readonly action: IntentionAction;
  /** Which requests match. */
  readonly http: IntentionHttpMatch;
}

/**
 * A source of calls to the entry's service, and what is done with them: either an L4 `action`
 * (the whole connection) or L7 `permissions` (per HTTP request, needing an HTTP-family protocol).
 */
export interface IntentionSource {
  /** The calling service's name, or `*` for every service (ranked after exact names). */
  readonly name: string;
  /**
   * L4: allow or deny every call from this source (not with `permissions`).
   * @default - none: `permissions` decide
   */
  readonly action?: IntentionAction;
  /**
   * L7: per-request permissions, in order (not with `action`). Requests no permission matches
   * fall back to the mesh's default intention policy.
   * @default []
   */
  readonly permissions?: IntentionPermission[];
  /**
   * A description of the intention.
   * @default - none
   */
  readonly description?: string;
}
