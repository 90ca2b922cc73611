import { RequestError } from '../emulator/responses';
import { defaultPolicyPassword, randomString } from '../shared/passwords.emulator';

/** Stored state of the directory engine (JSON; sealed by the host's storage barrier in snapshots). */

/** A service account of the simulated directory. */
export interface DirAccount {
  password: string;
  password_last_set_ms: number;
}

export interface DirConfig {
  binddn: string;
  bindpass: string;
  url: string;
  userdn: string;
  upndomain: string;
  certificate: string;
  insecure_tls: boolean;
  starttls: boolean;
  tls_min_version: string;
  tls_max_version: string;
  request_timeout: number;
  ttl: number;
  max_ttl: number;
  password_policy: string;
  /** 0 when not set (the default 64 applies without a password policy). */
  length: number;
  formatter: string;
  last_rotation_tolerance: number;
}

export interface DirRole {
  service_account_name: string;
  ttl: number;
  /** Epoch ms of the engine's last rotation of this account; 0 before the first. */
  last_rotation_ms: number;
  current_password: string;
  last_password: string;
}

export interface DirSet {
  service_account_names: string[];
  ttl: number;
  max_ttl: number;
  disable_check_in_enforcement: boolean;
}

export interface DirCheckOut {
  set: string;
  lease_id: string;
  /** A one-way hash of the borrower's token: the token itself is never stored. */
  borrower_client_token: string;
  borrower_entity_id: string;
  expires_ms: number;
  /** When it was checked out and last renewed (epoch ms); absent in check-outs stored before these were kept. */
  issued_ms?: number;
  renewed_ms?: number;
}

export interface DirState {
  /** The simulated directory, by account name (seeded through the admin interface). */
  accounts: Record<string, DirAccount>;
  config?: DirConfig;
  roles: Record<string, DirRole>;
  sets: Record<string, DirSet>;
  /** Checked-out library accounts, by account name. */
  checkouts: Record<string, DirCheckOut>;
  /** Passwords the engine set on library accounts, by account name. */
  library_passwords: Record<string, string>;
  /** How long a rotation takes, so that "in progress" is observable. */
  rotation_delay_ms: number;
}

export function emptyDirState(): DirState {
  return { accounts: {}, roles: {}, sets: {}, checkouts: {}, library_passwords: {}, rotation_delay_ms: 0 };
}

export const DEFAULT_LENGTH = 64;
export const MIN_LENGTH = 14;
/** The fixed prefix of legacy (`length`) passwords, meeting directory complexity rules. */
export const COMPLEXITY_PREFIX = '?@09AZ';
const PLACEHOLDER = '{{PASSWORD}}';
const MIN_GENERATED = 8;

/** Checks `length` and `formatter` as the real engine does. */
export function checkPasswordSettings(length: number, formatter: string): void {
  const len = length || DEFAULT_LENGTH;
  if (len < MIN_LENGTH) {
    throw new RequestError(400, `it's not possible to generate a _secure_ password of length ${len}, please boost length to ${MIN_LENGTH}, though the service recommends higher`);
  }
  if (formatter) {
    if (formatter.split(PLACEHOLDER).length !== 2) throw new RequestError(400, `formatter must contain "${PLACEHOLDER}" exactly once`);
    const generated = len - (formatter.length - PLACEHOLDER.length);
    if (generated < MIN_GENERATED) {
      throw new RequestError(400, `since the desired length is ${len}, it isn't possible to generate a sufficiently secure password of at least ${MIN_GENERATED} characters`);
    }
  }
}

/**
 * A new password: the default policy when a password policy is named (named policies are not
 * simulated); otherwise `length` characters, starting with `?@09AZ` unless a formatter wraps them.
 */
export function generatePassword(c: DirConfig): string {
  if (c.password_policy) return defaultPolicyPassword();
  const len = c.length || DEFAULT_LENGTH;
  if (c.formatter) return c.formatter.replace(PLACEHOLDER, randomString(len - (c.formatter.length - PLACEHOLDER.length)));
  return COMPLEXITY_PREFIX + randomString(len - COMPLEXITY_PREFIX.length);
}
