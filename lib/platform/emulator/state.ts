/**
 * The platform emulator's state: plain JSON so that `snapshot()`/`restore()` are a copy.
 * Tokens are kept as SHA-256 digests, never in clear (the snapshot is written to disk).
 */

export type Edition = 'hosted' | 'self-hosted';
export type TokenKind = 'user' | 'team' | 'organization';

export interface UserRecord {
  readonly id: string;
  readonly username: string;
  readonly email: string;
  /** May create organizations. */
  readonly admin: boolean;
}

export interface TokenRecord {
  readonly id: string;
  readonly kind: TokenKind;
  /** Every token is bound to a user: the rate limit is per user, shared by the user's tokens. */
  readonly userId: string;
  /** Organization external id, for team and organization tokens. */
  readonly organizationId?: string;
}

export interface OrganizationRecord {
  /** The organization external id `org-…` (the name is the API id and may change). */
  readonly externalId: string;
  name: string;
  createdAt: string;
  /** Kebab-case attributes as the API stores them (request attributes with their defaults). */
  attributes: Record<string, unknown>;
  /** Users who own the organization (full permissions). */
  owners: string[];
  /** Entitlement-set attributes, kebab-case. */
  entitlements: Record<string, boolean | number | null>;
}

/** An agent pool, as far as the organization slice needs it (issue 3 fills in the rest). */
export interface AgentPoolRecord {
  readonly id: string;
  name: string;
  /** Organization external id. */
  organizationId: string;
  createdAt: string;
  organizationScoped: boolean;
}

export interface PlatformState {
  users: Record<string, UserRecord>;
  /** Keyed by SHA-256 hex digest of the token string. */
  tokens: Record<string, TokenRecord>;
  /** Keyed by external id. */
  organizations: Record<string, OrganizationRecord>;
  /** Keyed by pool id `apool-…`. */
  agentPools: Record<string, AgentPoolRecord>;
  /** Monotonic counter for generated ids. */
  serial: number;
}

export function emptyState(): PlatformState {
  return { users: {}, tokens: {}, organizations: {}, agentPools: {}, serial: 0 };
}

/** A fresh id with a prefix, e.g. `org-3Fk…`. Random part plus a serial, so ids never repeat. */
export function newId(state: PlatformState, prefix: string): string {
  state.serial += 1;
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let s = '';
  for (let i = 0; i < 12; i++) s += alphabet[Math.floor(Math.random() * alphabet.length)];
  return `${prefix}-${s}${state.serial.toString(36)}`;
}
