/** Stored state of the database engine (JSON; sealed by the host's storage barrier in snapshots). */

export interface DbConnection {
  plugin_name: string;
  plugin_version: string;
  verify_connection: boolean;
  allowed_roles: string[];
  root_rotation_statements: string[];
  password_policy: string;
  connection_url: string;
  username: string;
  /** The root password: never returned; after rotate-root known only to the engine. */
  password: string;
  disable_escaping: boolean;
}

export interface DbRole {
  db_name: string;
  default_ttl: number;
  max_ttl: number;
  creation_statements: string[];
  revocation_statements: string[];
  rollback_statements: string[];
  renew_statements: string[];
  credential_type: string;
  credential_config: Record<string, string>;
}

export interface DbStaticRole {
  db_name: string;
  username: string;
  rotation_period: number;
  rotation_statements: string[];
  credential_type: string;
  credential_config: Record<string, string>;
  password: string;
  /** Epoch milliseconds of the last rotation. */
  last_rotation_ms: number;
}

/** A dynamic credential's lease: revoked (statements run) when it expires. */
export interface DbLease {
  id: string;
  role: string;
  db_name: string;
  username: string;
  revocation_statements: string[];
  expires_ms: number;
  /** When it was issued and last renewed (epoch ms); absent in leases stored before these were kept. */
  issued_ms?: number;
  renewed_ms?: number;
}

export interface DbState {
  connections: Record<string, DbConnection>;
  roles: Record<string, DbRole>;
  static_roles: Record<string, DbStaticRole>;
  leases: Record<string, DbLease>;
}

export function emptyDbState(): DbState {
  return { connections: {}, roles: {}, static_roles: {}, leases: {} };
}

/** The mount's default and maximum lease ttl (the real service's system default, 768h). */
export const SYSTEM_MAX_TTL = 768 * 3600;
