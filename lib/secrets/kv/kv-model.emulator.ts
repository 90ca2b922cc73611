import { RequestError } from '../emulator/responses';
import { goDuration, parseDurationParam, rfc3339Nano } from '../emulator/time';

/** One stored version of a key. Times are RFC 3339 strings; `deletionTime` "" when not deleted. */
export interface KvVersion {
  createdTime: string;
  /** Nanoseconds since the epoch (string, JSON-safe) when the version reads as deleted; "" when never. */
  deletionNanos: string;
  deletionTime: string;
  destroyed: boolean;
  /** undefined once destroyed. */
  data?: Record<string, unknown>;
}

/** Metadata and versions of one key. */
export interface KvKey {
  createdTime: string;
  updatedTime: string;
  currentVersion: number;
  oldestVersion: number;
  maxVersions: number;
  casRequired: boolean;
  /** seconds */
  deleteVersionAfter: number;
  customMetadata: Record<string, string> | null;
  versions: Record<string, KvVersion>;
  /** Metadata writes must carry `metadata_cas` (as the real service; absent in data written before it). */
  metadataCasRequired?: boolean;
  /** Bumped by each metadata write (a data write creating the key leaves it 0). */
  currentMetadataVersion?: number;
}

/** Engine-wide configuration (`{mount}/config`). */
export interface KvConfig {
  maxVersions: number;
  casRequired: boolean;
  /** seconds */
  deleteVersionAfter: number;
  /** Metadata writes of every key must carry `metadata_cas`. */
  metadataCasRequired?: boolean;
}

/** The whole state of one KV mount (JSON-serialisable). */
export interface KvState {
  config: KvConfig;
  keys: Record<string, KvKey>;
}

export const DEFAULT_MAX_VERSIONS = 10;
export const CUSTOM_METADATA_MAX_KEYS = 64;
export const CUSTOM_METADATA_MAX_KEY_LENGTH = 128;
export const CUSTOM_METADATA_MAX_VALUE_LENGTH = 512;

export const CAS_MISMATCH = 'check-and-set parameter did not match the current version';
export const CAS_REQUIRED = 'check-and-set parameter required for this call';

export function emptyState(): KvState {
  return { config: { maxVersions: 0, casRequired: false, deleteVersionAfter: 0 }, keys: {} };
}

/** A key without versions, created at `nowNs` (nanoseconds since the epoch). */
export function newKey(nowNs: bigint): KvKey {
  const now = rfc3339Nano(nowNs);
  return {
    createdTime: now, updatedTime: now, currentVersion: 0, oldestVersion: 0, maxVersions: 0,
    casRequired: false, deleteVersionAfter: 0, customMetadata: null, versions: {},
  };
}

/** Whether a version reads as deleted at `now` (nanoseconds; soft-deleted, or past its `delete_version_after` time). */
export function isDeleted(v: KvVersion, now: bigint): boolean {
  return v.deletionNanos !== '' && BigInt(v.deletionNanos) <= now;
}

/** Version metadata as in read and write responses. */
export function versionMetadata(key: KvKey, version: number): Record<string, unknown> {
  const v = key.versions[String(version)];
  return {
    created_time: v.createdTime,
    custom_metadata: key.customMetadata,
    deletion_time: v.deletionTime,
    destroyed: v.destroyed,
    version,
  };
}

/** Key metadata as `GET {mount}/metadata/<path>` returns it. */
export function keyMetadata(key: KvKey): Record<string, unknown> {
  const versions: Record<string, unknown> = {};
  for (const [n, v] of Object.entries(key.versions)) {
    versions[n] = { created_time: v.createdTime, deletion_time: v.deletionTime, destroyed: v.destroyed };
  }
  return {
    cas_required: key.casRequired,
    created_time: key.createdTime,
    current_metadata_version: key.currentMetadataVersion ?? 0,
    current_version: key.currentVersion,
    custom_metadata: key.customMetadata,
    delete_version_after: goDuration(key.deleteVersionAfter),
    max_versions: key.maxVersions,
    metadata_cas_required: key.metadataCasRequired ?? false,
    oldest_version: key.oldestVersion,
    updated_time: key.updatedTime,
    versions,
  };
}

/** The `delete_version_after` that applies to new versions: the key's, capped by the engine's. */
export function effectiveDeleteAfter(key: KvKey, config: KvConfig): number {
  const k = key.deleteVersionAfter;
  const e = config.deleteVersionAfter;
  if (k > 0 && e > 0) return Math.min(k, e);
  return k > 0 ? k : e;
}

/** Versions kept per key: the key's `max_versions` over the engine's; 0 means 10. */
export function effectiveMaxVersions(key: KvKey, config: KvConfig): number {
  const n = key.maxVersions > 0 ? key.maxVersions : config.maxVersions;
  return n > 0 ? n : DEFAULT_MAX_VERSIONS;
}

/** Permanently removes the oldest versions beyond the allowed count. */
export function trimVersions(key: KvKey, config: KvConfig): void {
  const max = effectiveMaxVersions(key, config);
  const nums = Object.keys(key.versions).map(Number).sort((a, b) => a - b);
  while (nums.length > max) delete key.versions[String(nums.shift()!)];
  if (nums.length && nums[0] > 1) key.oldestVersion = nums[0];
}

/** Appends a new version holding `data`, written at `now` (nanoseconds); trims old versions (the "next write"). */
export function writeVersion(key: KvKey, config: KvConfig, data: Record<string, unknown>, now: bigint): number {
  const version = key.currentVersion + 1;
  const after = effectiveDeleteAfter(key, config);
  const deletion = after > 0 ? now + BigInt(after) * 1_000_000_000n : undefined;
  key.versions[String(version)] = {
    createdTime: rfc3339Nano(now),
    deletionNanos: deletion === undefined ? '' : deletion.toString(),
    deletionTime: deletion === undefined ? '' : rfc3339Nano(deletion),
    destroyed: false,
    data,
  };
  key.currentVersion = version;
  key.updatedTime = rfc3339Nano(now);
  trimVersions(key, config);
  return version;
}

/** Checks `options.cas` of a write against the key's current version (rule 2), as the real service does. */
export function checkCas(options: unknown, key: KvKey | undefined, config: KvConfig): void {
  const opts = (options && typeof options === 'object') ? options as Record<string, unknown> : {};
  if (!('cas' in opts)) {
    if (config.casRequired || (key?.casRequired ?? false)) throw new RequestError(400, CAS_REQUIRED);
    return;
  }
  // Weakly decoded like the real service: a number or a numeric string.
  const raw = opts.cas;
  const cas = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof cas !== 'number' || !Number.isInteger(cas) || cas < 0) throw new RequestError(400, 'error parsing check-and-set parameter');
  if (cas !== (key?.currentVersion ?? 0)) throw new RequestError(400, CAS_MISMATCH);
}

export const METADATA_CAS_REQUIRED = 'metadata check-and-set parameter required for this call';
export const METADATA_CAS_MISMATCH = 'metadata check-and-set parameter does not match the current version';

/**
 * Checks `metadata_cas` of a metadata write, as the real service: required where the engine or the
 * key says so; 0 to create a key, else the key's `current_metadata_version`.
 */
export function checkMetadataCas(raw: unknown, key: KvKey | undefined, config: KvConfig): void {
  if (raw === undefined) {
    if (config.metadataCasRequired || key?.metadataCasRequired) throw new RequestError(400, METADATA_CAS_REQUIRED);
    return;
  }
  const cas = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof cas !== 'number' || !Number.isInteger(cas) || cas < 0) {
    throw new RequestError(400, `error converting input for field "metadata_cas": '' cannot parse value as 'int': strconv.ParseInt: invalid syntax`);
  }
  if (!key && cas !== 0) throw new RequestError(400, 'metadata_cas must be 0 when creating new metadata');
  if (key && cas !== (key.currentMetadataVersion ?? 0)) throw new RequestError(400, METADATA_CAS_MISMATCH);
}

/** Several problems in the real service's (go-multierror) wording. */
function multiError(problems: string[]): string {
  const n = problems.length;
  return `${n} error${n === 1 ? '' : 's'} occurred:\n${problems.map((p) => `\t* ${p}`).join('\n')}\n\n`;
}

const CM_PREFIX = 'custom_metadata validation failed';

/**
 * Parses custom metadata as the real service does: values weakly decoded to strings (numbers and
 * booleans become their text; `null` entries dropped when `dropNulls`, for a patch), then checked
 * against the limits: at most 64 keys, keys 1 to 128 and values 1 to 512 characters.
 */
export function checkCustomMetadata(cm: unknown, dropNulls = false): Record<string, string> {
  if (typeof cm !== 'object' || cm === null || Array.isArray(cm)) {
    throw new RequestError(400, `${CM_PREFIX}: custom_metadata must be a map of string to string`);
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(cm as Record<string, unknown>)) {
    if (v === null && dropNulls) continue;
    if (v === null) { out[k] = ''; continue; }
    if (typeof v === 'object') throw new RequestError(400, `${CM_PREFIX}: value of key "${k}" must be a string`);
    out[k] = String(v);
  }
  const entries = Object.entries(out);
  if (entries.length > CUSTOM_METADATA_MAX_KEYS) {
    throw new RequestError(400, multiError([`${CM_PREFIX}: payload must contain at most ${CUSTOM_METADATA_MAX_KEYS} keys, provided ${entries.length}`]));
  }
  const problems: string[] = [];
  for (const [k, v] of entries) {
    if (k.length === 0 || k.length > CUSTOM_METADATA_MAX_KEY_LENGTH) {
      problems.push(`${CM_PREFIX}: length of key "${k}" is ${k.length} but must be 0 < len(key) <= ${CUSTOM_METADATA_MAX_KEY_LENGTH}`);
    }
    if (v.length === 0 || v.length > CUSTOM_METADATA_MAX_VALUE_LENGTH) {
      problems.push(`${CM_PREFIX}: length of value for key "${k}" is ${v.length} but must be 0 < len(value) <= ${CUSTOM_METADATA_MAX_VALUE_LENGTH}`);
    }
  }
  if (problems.length) throw new RequestError(400, multiError(problems));
  return out;
}

/** Parses `max_versions`. */
export function parseMaxVersions(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new RequestError(400, 'max_versions must be a non-negative integer');
  }
  return v;
}

/** Parses `cas_required`. */
export function parseBool(field: string, v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new RequestError(400, `${field} must be a boolean`);
}

/** Parses `delete_version_after` into seconds. */
export function parseDeleteAfter(v: unknown): number {
  const s = parseDurationParam(v);
  if (s === undefined) throw new RequestError(400, `delete_version_after "${String(v)}" is not a valid duration`);
  return s;
}

/** JSON merge patch (RFC 7396). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = (typeof target === 'object' && target !== null && !Array.isArray(target))
    ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * The structure of `data` with leaf values replaced by null, down to `depth` levels (0: no limit).
 * As the real service: a map with no keys is a leaf too, and keys at `depth` are leaves.
 */
export function subkeys(data: unknown, depth: number, level = 1): unknown {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
    const nested = typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0;
    out[k] = nested && (depth === 0 || level < depth) ? subkeys(v, depth, level + 1) : null;
  }
  return out;
}
