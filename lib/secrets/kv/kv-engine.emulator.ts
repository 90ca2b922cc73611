import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { EmuResponse } from '../../core/emulator-kit/types';
import { Engine, EngineRequest, ownEntry } from '../emulator/engine';
import {
  checkCas, checkCustomMetadata, checkMetadataCas, effectiveDeleteAfter, emptyState, isDeleted, keyMetadata, KvKey, KvState, mergePatch, newKey,
  parseBool, parseDeleteAfter, parseMaxVersions, subkeys, versionMetadata, writeVersion,
} from './kv-model.emulator';
import { envelope, errors, noContent, notFound, objectBody, RequestError } from '../emulator/responses';
import { goDuration, nowNanos, rfc3339Nano } from '../emulator/time';

const MERGE_PATCH = 'application/merge-patch+json';

type Op = (r: EngineRequest, path: string) => EmuResponse;

/**
 * The key-value version 2 engine: `config`, `data`, `subkeys`, `delete`, `undelete`, `destroy`
 * and `metadata` below its mount, with the version states, check-and-set, trimming and
 * `delete_version_after` rules of the spec.
 *
 * Where the spec is silent, as the real service does:
 * - PATCH without `Content-Type: application/merge-patch+json` answers 415.
 * - Delete, undelete and destroy of an absent key or unknown versions answer 204; `versions`
 *   missing or empty answers 400 "No version number provided" ("no …" on destroy); undelete restarts a version's
 *   `delete_version_after` clock; destroyed versions stay listed in
 *   `versions` with `destroyed: true` and cannot be undeleted.
 * - A subkeys read of a deleted or destroyed version answers 404 with `subkeys` null and the
 *   version metadata, like a data read.
 * - `oldest_version` is 0 until trimming has removed a version, then the oldest version kept.
 * - Lowering `max_versions` trims nothing until the next data write.
 * - Metadata write and patch change only the fields present; `custom_metadata` `{}` or null
 *   clears it (read back as null); patch merges `custom_metadata` (null removes a key).
 * - Negative durations and `max_versions` are refused with 400 (the real service would take a
 *   negative `delete_version_after` as "disabled").
 */
export class KvEngine implements Engine {
  public readonly type = 'kv';
  private state: KvState = emptyState();

  /** @param clock what time it is (`delete_version_after`, created and deletion times) */
  constructor(private readonly clock: Clock = SYSTEM_CLOCK) {}

  /** Operations per first path segment and method (POST also stands for PUT). */
  private readonly routes: Record<string, Record<string, Op>> = {
    config: { GET: () => this.readConfig(), POST: (r) => this.writeConfig(r) },
    data: {
      GET: (r, p) => this.readData(r, p), POST: (r, p) => this.writeData(r, p),
      PATCH: (r, p) => this.patchData(r, p), DELETE: (_r, p) => this.deleteLatest(p),
    },
    subkeys: { GET: (r, p) => this.readSubkeys(r, p) },
    delete: { POST: (r, p) => this.setDeleted(r, p, true) },
    undelete: { POST: (r, p) => this.setDeleted(r, p, false) },
    destroy: { POST: (r, p) => this.destroy(r, p) },
    metadata: {
      GET: (_r, p) => this.readMetadata(p), LIST: (_r, p) => this.list(p), POST: (r, p) => this.writeMetadata(r, p),
      PATCH: (r, p) => this.patchMetadata(r, p), DELETE: (_r, p) => this.deleteMetadata(p),
    },
  };

  public handle(r: EngineRequest): EmuResponse {
    const slash = r.subPath.indexOf('/');
    const section = slash < 0 ? r.subPath : r.subPath.slice(0, slash);
    const path = slash < 0 ? '' : r.subPath.slice(slash + 1);
    const ops = this.routes[section];
    if (!ops) return errors(404, 'unsupported path');
    if (section === 'config' && path !== '') return errors(404, 'unsupported path');
    // Every path but config and LIST on metadata names a key.
    const op = ops[r.method];
    if (!op) return errors(405, 'unsupported operation');
    if (section !== 'config' && r.method !== 'LIST' && path.replace(/\/$/, '') === '') {
      return errors(404, 'unsupported path');
    }
    return op(r, path);
  }

  /** Data and metadata writes check existence (a key with metadata exists); other writes do not. */
  public exists(subPath: string): boolean | undefined {
    const m = /^(data|metadata)\/(.+)$/.exec(subPath);
    return m ? this.key(m[2]) !== undefined : undefined;
  }

  /** Now on the engine's clock, in nanoseconds (strictly increasing). */
  private now(): bigint {
    return nowNanos(this.clock);
  }

  public snapshot(): unknown {
    return this.state;
  }

  public restore(data: unknown): void {
    this.state = (data as KvState | undefined) ?? emptyState();
  }

  // ---- config

  private readConfig(): EmuResponse {
    const c = this.state.config;
    return envelope({
      cas_required: c.casRequired, delete_version_after: goDuration(c.deleteVersionAfter), max_versions: c.maxVersions,
      metadata_cas_required: c.metadataCasRequired ?? false,
    });
  }

  private writeConfig(r: EngineRequest): EmuResponse {
    const b = objectBody(r.body);
    const c = { ...this.state.config };
    if (b.max_versions !== undefined) c.maxVersions = parseMaxVersions(b.max_versions);
    if (b.cas_required !== undefined) c.casRequired = parseBool('cas_required', b.cas_required);
    if (b.delete_version_after !== undefined) c.deleteVersionAfter = parseDeleteAfter(b.delete_version_after);
    if (b.metadata_cas_required !== undefined) c.metadataCasRequired = parseBool('metadata_cas_required', b.metadata_cas_required);
    this.state.config = c;
    return noContent();
  }

  // ---- data

  private key(path: string): KvKey | undefined {
    return ownEntry(this.state.keys, path);
  }

  /** The version a read asks for (`?version=`, 0 or unset: the current one). */
  private requestedVersion(r: EngineRequest, key: KvKey): number {
    const raw = r.req.query.get('version');
    if (raw === null || raw === '') return key.currentVersion;
    if (!/^\d+$/.test(raw)) throw new RequestError(400, `invalid version "${raw}": must be a non-negative integer`);
    const n = Number(raw);
    return n === 0 ? key.currentVersion : n;
  }

  private readData(r: EngineRequest, path: string): EmuResponse {
    const key = this.key(path);
    if (!key) return notFound();
    const n = this.requestedVersion(r, key);
    const v = key.versions[String(n)];
    if (!v) return notFound();
    const metadata = versionMetadata(key, n);
    if (v.destroyed || isDeleted(v, this.now())) return envelope({ data: null, metadata }, 404);
    return envelope({ data: v.data, metadata });
  }

  private dataOf(body: Record<string, unknown>): Record<string, unknown> {
    const d = body.data;
    if (d === undefined || d === null) throw new RequestError(400, 'no data provided');
    if (typeof d !== 'object' || Array.isArray(d)) throw new RequestError(400, 'data must be a JSON object');
    return d as Record<string, unknown>;
  }

  private writeData(r: EngineRequest, path: string): EmuResponse {
    const b = objectBody(r.body);
    const data = this.dataOf(b);
    const existing = this.key(path);
    checkCas(b.options, existing, this.state.config);
    const key = existing ?? newKey(this.now());
    const version = writeVersion(key, this.state.config, data, this.now());
    this.state.keys[path] = key;
    return envelope(versionMetadata(key, version));
  }

  private patchData(r: EngineRequest, path: string): EmuResponse {
    this.requireMergePatch(r);
    const b = objectBody(r.body);
    const patch = this.dataOf(b);
    const key = this.key(path);
    if (!key) return notFound();
    checkCas(b.options, key, this.state.config);
    const current = key.versions[String(key.currentVersion)];
    if (!current) return notFound();
    // As the real service: a deleted or destroyed latest version answers 404 with its metadata.
    if (current.destroyed || isDeleted(current, this.now())) return envelope(versionMetadata(key, key.currentVersion), 404);
    const version = writeVersion(key, this.state.config, mergePatch(current.data, patch) as Record<string, unknown>, this.now());
    return envelope(versionMetadata(key, version));
  }

  private readSubkeys(r: EngineRequest, path: string): EmuResponse {
    const key = this.key(path);
    if (!key) return notFound();
    const n = this.requestedVersion(r, key);
    const v = key.versions[String(n)];
    if (!v) return notFound();
    const rawDepth = r.req.query.get('depth');
    if (rawDepth !== null && rawDepth !== '' && !/^\d+$/.test(rawDepth)) {
      throw new RequestError(400, `invalid depth "${rawDepth}": must be a non-negative integer`);
    }
    const depth = rawDepth ? Number(rawDepth) : 0;
    const metadata = versionMetadata(key, n);
    if (v.destroyed || isDeleted(v, this.now())) return envelope({ subkeys: null, metadata }, 404);
    return envelope({ subkeys: subkeys(v.data, depth), metadata });
  }

  private deleteLatest(path: string): EmuResponse {
    const key = this.key(path);
    const v = key?.versions[String(key.currentVersion)];
    if (key && v && !v.destroyed && !isDeleted(v, this.now())) this.markDeleted(v);
    return noContent();
  }

  private markDeleted(v: { deletionNanos: string; deletionTime: string }): void {
    const now = this.now();
    v.deletionNanos = now.toString();
    v.deletionTime = rfc3339Nano(now);
  }

  /** `versions`: a list of integers or a comma-separated string, as the real service accepts. */
  private versionsOf(body: unknown, missing = 'No version number provided'): number[] {
    const vs = objectBody(body).versions;
    const list = typeof vs === 'string' ? vs.split(',').map((x) => x.trim()).filter((x) => x !== '')
      : Array.isArray(vs) ? vs : vs === undefined || vs === null ? [] : [vs];
    if (list.length === 0) throw new RequestError(400, missing);
    return list.map((x) => {
      const n = typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : x;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new RequestError(400, 'versions must be a list of integers');
      return n;
    });
  }

  private setDeleted(r: EngineRequest, path: string, deleted: boolean): EmuResponse {
    const versions = this.versionsOf(r.body);
    const key = this.key(path);
    if (!key) return noContent();
    for (const n of versions) {
      const v = key.versions[String(n)];
      if (!v || v.destroyed) continue;
      if (deleted) {
        if (!isDeleted(v, this.now())) this.markDeleted(v);
      } else {
        // As the real service: an undeleted version gets a fresh deletion time when one applies.
        const after = effectiveDeleteAfter(key, this.state.config);
        const at = after > 0 ? this.now() + BigInt(after) * 1_000_000_000n : undefined;
        v.deletionNanos = at === undefined ? '' : at.toString();
        v.deletionTime = at === undefined ? '' : rfc3339Nano(at);
      }
    }
    return noContent();
  }

  private destroy(r: EngineRequest, path: string): EmuResponse {
    // The real service words this one in lower case.
    const versions = this.versionsOf(r.body, 'no version number provided');
    const key = this.key(path);
    if (!key) return noContent();
    for (const n of versions) {
      const v = key.versions[String(n)];
      if (!v) continue;
      v.destroyed = true;
      delete v.data;
    }
    return noContent();
  }

  // ---- metadata

  private readMetadata(path: string): EmuResponse {
    const key = this.key(path);
    return key ? envelope(keyMetadata(key)) : notFound();
  }

  private list(path: string): EmuResponse {
    const prefix = path === '' || path.endsWith('/') ? path : `${path}/`;
    const names = new Set<string>();
    for (const k of Object.keys(this.state.keys)) {
      if (!k.startsWith(prefix)) continue;
      const rest = k.slice(prefix.length);
      const slash = rest.indexOf('/');
      names.add(slash < 0 ? rest : rest.slice(0, slash + 1));
    }
    if (names.size === 0) return notFound();
    return envelope({ keys: [...names].sort() });
  }

  /** Applies the metadata fields present in a body (write and patch); a warning when the engine overrides cas_required. */
  private applyMetadata(key: KvKey, b: Record<string, unknown>, patch: boolean): string[] {
    const next = { ...key };
    const warnings: string[] = [];
    if (b.max_versions !== undefined) next.maxVersions = parseMaxVersions(b.max_versions);
    if (b.cas_required !== undefined) {
      next.casRequired = parseBool('cas_required', b.cas_required);
      if (!next.casRequired && this.state.config.casRequired) {
        warnings.push('"cas_required" set to false, but is mandated by backend config. This value will be ignored.');
      }
    }
    if (b.delete_version_after !== undefined) next.deleteVersionAfter = parseDeleteAfter(b.delete_version_after);
    if (b.metadata_cas_required !== undefined) next.metadataCasRequired = parseBool('metadata_cas_required', b.metadata_cas_required);
    if (b.custom_metadata !== undefined && b.custom_metadata !== null) {
      const given = checkCustomMetadata(b.custom_metadata, patch);
      let cm = given;
      if (patch) {
        // Merge: null removes a key; the result must still be within the limits.
        const p: Record<string, unknown> = {};
        for (const k of Object.keys(b.custom_metadata as object)) p[k] = k in given ? given[k] : null;
        cm = checkCustomMetadata(mergePatch(key.customMetadata ?? {}, p));
      }
      next.customMetadata = Object.keys(cm).length ? cm : null;
    } else if (b.custom_metadata === null && !patch) {
      next.customMetadata = null;
    }
    next.updatedTime = rfc3339Nano(this.now());
    next.currentMetadataVersion = (key.currentMetadataVersion ?? 0) + 1;
    Object.assign(key, next);
    return warnings;
  }

  /** 204, or 200 with only warnings (as the real service answers a write that warns). */
  private written(warnings: string[]): EmuResponse {
    return warnings.length ? envelope(null, 200, warnings) : noContent();
  }

  private writeMetadata(r: EngineRequest, path: string): EmuResponse {
    const b = objectBody(r.body);
    // As the real service: a body without any metadata field changes nothing (not even creating the key).
    if (!['max_versions', 'cas_required', 'delete_version_after', 'custom_metadata', 'metadata_cas_required'].some((f) => b[f] !== undefined)) {
      return noContent();
    }
    const existing = this.key(path);
    checkMetadataCas(b.metadata_cas, existing, this.state.config);
    const key = existing ? { ...existing } : newKey(this.now());
    const warnings = this.applyMetadata(key, b, false);
    this.state.keys[path] = key;
    return this.written(warnings);
  }

  private patchMetadata(r: EngineRequest, path: string): EmuResponse {
    this.requireMergePatch(r);
    const b = objectBody(r.body);
    const existing = this.key(path);
    if (!existing) return notFound();
    checkMetadataCas(b.metadata_cas, existing, this.state.config);
    const key = { ...existing };
    const warnings = this.applyMetadata(key, b, true);
    this.state.keys[path] = key;
    return this.written(warnings);
  }

  private deleteMetadata(path: string): EmuResponse {
    delete this.state.keys[path];
    return noContent();
  }

  private requireMergePatch(r: EngineRequest): void {
    const type = (r.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== MERGE_PATCH) {
      throw new RequestError(415, `PATCH requires Content-Type of ${MERGE_PATCH}, provided ${type || 'none'}`);
    }
  }
}
