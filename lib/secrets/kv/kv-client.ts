import { ApiError } from '../../core/http/api-error';
import { encodePath } from '../../core/http/http-client';
import { SecretsClient, SecretsEnvelope } from '../client/secrets-client';

/** Engine configuration of a KV mount. */
export interface KvConfigData {
  readonly max_versions: number;
  readonly cas_required: boolean;
  readonly delete_version_after: string;
}

/** Metadata of one version, as in read and write answers. */
export interface KvVersionMetadata {
  readonly created_time: string;
  readonly custom_metadata: Record<string, string> | null;
  readonly deletion_time: string;
  readonly destroyed: boolean;
  readonly version: number;
}

/** A version read: `data` is null when the version is soft-deleted or destroyed. */
export interface KvSecretVersion {
  readonly data: Record<string, unknown> | null;
  readonly metadata: KvVersionMetadata;
}

/** Key metadata (`GET {mount}/metadata/<path>`). */
export interface KvKeyMetadata {
  readonly cas_required: boolean;
  readonly created_time: string;
  readonly current_version: number;
  readonly custom_metadata: Record<string, string> | null;
  readonly delete_version_after: string;
  readonly max_versions: number;
  readonly oldest_version: number;
  readonly updated_time: string;
  /** Bumped by each metadata write (the real service; the spec does not name it). */
  readonly current_metadata_version?: number;
  /** Metadata writes of this key must carry `metadata_cas` (the real service). */
  readonly metadata_cas_required?: boolean;
  readonly versions: Record<string, { created_time: string; deletion_time: string; destroyed: boolean }>;
}

/** Writable key metadata; absent fields are left as they are. */
export interface KvKeyMetadataInput {
  readonly max_versions?: number;
  readonly cas_required?: boolean;
  readonly delete_version_after?: string | number;
  readonly custom_metadata?: Record<string, string | null> | null;
}

/** Subkeys of a version: leaf values replaced by null; null when the version is deleted or destroyed. */
export interface KvSubkeys {
  readonly subkeys: Record<string, unknown> | null;
  readonly metadata: KvVersionMetadata;
}

const METADATA_CAS_REQUIRED = 'metadata check-and-set parameter required';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

/**
 * Encodes a mount or key path segment by segment, refusing what would address another object once
 * a server or proxy normalises the URL: empty segments (`a//b`, a leading or trailing `/`), `.` and `..`.
 */
function kvPath(p: string, what: string): string {
  if (typeof p !== 'string' || p.split('/').some((s) => s === '')) {
    throw new Error(`${what} "${p}" must not be empty, start or end with "/", or contain "//"`);
  }
  return encodePath(p);
}

/** Typed calls of the key-value version 2 engine. Reads answer undefined when the key is absent (404). */
export class KvClient {
  constructor(private readonly secrets: SecretsClient, private readonly constructPath?: string) {}

  public async readConfig(mount: string): Promise<KvConfigData | undefined> {
    const res = await this.get<KvConfigData>(`${kvPath(mount, 'mount')}/config`);
    return res?.data;
  }

  public async writeConfig(mount: string, config: Partial<KvConfigData> & { delete_version_after?: string | number }): Promise<void> {
    await this.send('POST', `${kvPath(mount, 'mount')}/config`, config);
  }

  /**
   * Reads a version (latest when `version` is unset or 0). Undefined when the key or version does
   * not exist; `data` null when the version is soft-deleted or destroyed.
   */
  public async read(mount: string, path: string, version?: number): Promise<KvSecretVersion | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<KvSecretVersion> | undefined>({
      method: 'GET', path: this.keyPath(mount, 'data', path), query: { version }, accept: [404], constructPath: this.constructPath,
    });
    if (res.status === 404) return res.body?.data?.metadata ? { data: null, metadata: res.body.data.metadata } : undefined;
    return res.body!.data;
  }

  /** Creates or replaces the data as a new version; `cas` checks the current version (0: only when absent). */
  public async write(mount: string, path: string, data: Record<string, unknown>, cas?: number): Promise<KvVersionMetadata> {
    const body = cas === undefined ? { data } : { options: { cas }, data };
    const res = await this.send<KvVersionMetadata>('POST', this.keyPath(mount, 'data', path), body);
    return res!;
  }

  /** Applies a JSON merge patch to the latest version, making a new version. */
  public async patch(mount: string, path: string, data: Record<string, unknown>, cas?: number): Promise<KvVersionMetadata> {
    const body = cas === undefined ? { data } : { options: { cas }, data };
    const res = await this.send<KvVersionMetadata>('PATCH', this.keyPath(mount, 'data', path), body, MERGE_PATCH);
    return res!;
  }

  /** The structure of a version without its values; undefined when absent. */
  public async subkeys(mount: string, path: string, opts: { version?: number; depth?: number } = {}): Promise<KvSubkeys | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<KvSubkeys> | undefined>({
      method: 'GET', path: this.keyPath(mount, 'subkeys', path), query: { version: opts.version, depth: opts.depth },
      accept: [404], constructPath: this.constructPath,
    });
    if (res.status === 404) return res.body?.data?.metadata ? { subkeys: null, metadata: res.body.data.metadata } : undefined;
    return res.body!.data;
  }

  /** Soft-deletes the latest version. */
  public async deleteLatest(mount: string, path: string): Promise<void> {
    await this.send('DELETE', this.keyPath(mount, 'data', path));
  }

  public async deleteVersions(mount: string, path: string, versions: number[]): Promise<void> {
    await this.send('POST', this.keyPath(mount, 'delete', path), { versions });
  }

  public async undeleteVersions(mount: string, path: string, versions: number[]): Promise<void> {
    await this.send('POST', this.keyPath(mount, 'undelete', path), { versions });
  }

  /** Permanently removes the data of versions. */
  public async destroyVersions(mount: string, path: string, versions: number[]): Promise<void> {
    await this.send('PUT', this.keyPath(mount, 'destroy', path), { versions });
  }

  /** Names below a folder (`""` for the root); folders end with `/`; empty when none. */
  public list(mount: string, folder = ''): Promise<string[]> {
    const f = folder.replace(/\/+$/, '');
    return this.secrets.list(`${kvPath(mount, 'mount')}/metadata/${f ? `${kvPath(f, 'folder')}/` : ''}`, this.constructPath);
  }

  public async readMetadata(mount: string, path: string): Promise<KvKeyMetadata | undefined> {
    const res = await this.get<KvKeyMetadata>(this.keyPath(mount, 'metadata', path));
    return res?.data;
  }

  /**
   * Writes key metadata. Where the mount or key requires metadata check-and-set (the real service's
   * `metadata_cas_required`), the write is sent again with `metadata_cas`, the version just read:
   * other mounts cost no extra request.
   */
  public async writeMetadata(mount: string, path: string, metadata: KvKeyMetadataInput): Promise<void> {
    await this.withMetadataCas(mount, path, (body) => this.send('POST', this.keyPath(mount, 'metadata', path), body), metadata);
  }

  public async patchMetadata(mount: string, path: string, metadata: KvKeyMetadataInput): Promise<void> {
    await this.withMetadataCas(mount, path, (body) => this.send('PATCH', this.keyPath(mount, 'metadata', path), body, MERGE_PATCH), metadata);
  }

  private async withMetadataCas(mount: string, path: string, send: (body: unknown) => Promise<unknown>, metadata: KvKeyMetadataInput): Promise<void> {
    try {
      await send(metadata);
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 400 && e.apiMessages.some((m) => m.includes(METADATA_CAS_REQUIRED)))) throw e;
      const current = await this.readMetadata(mount, path);
      await send({ ...metadata, metadata_cas: current?.current_metadata_version ?? 0 });
    }
  }

  /** Removes the key, its metadata and every version; success when already gone. */
  public async deleteMetadata(mount: string, path: string): Promise<void> {
    await this.send('DELETE', this.keyPath(mount, 'metadata', path));
  }

  private keyPath(mount: string, section: string, path: string): string {
    return `${kvPath(mount, 'mount')}/${section}/${kvPath(path, 'key path')}`;
  }

  private async get<T>(path: string): Promise<SecretsEnvelope<T> | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<T>>({ method: 'GET', path, accept: [404], constructPath: this.constructPath });
    return res.status === 404 ? undefined : res.body;
  }

  private async send<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<T> | undefined>({ method, path, body, headers, constructPath: this.constructPath });
    return res.body?.data;
  }
}
