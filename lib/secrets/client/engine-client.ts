import { encodePath } from '../../core/http/http-client';
import { SecretsClient, SecretsEnvelope } from './secrets-client';

/**
 * One path segment (a key, role or method name): refuses what would address another object once a
 * server or proxy normalises the URL (empty, `.`, `..`) and encodes `/` and the rest.
 */
export function segment(name: string, what = 'name'): string {
  if (typeof name !== 'string' || name === '' || name === '.' || name === '..') {
    throw new Error(`${what} "${name}" must not be empty, "." or ".."`);
  }
  return encodeURIComponent(name);
}

/** A mount path (may hold `/`): refuses empty segments (`a//b`, a leading or trailing `/`), `.` and `..`. */
export function mountPath(mount: string): string {
  if (typeof mount !== 'string' || mount.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`mount "${mount}" must not be empty, start or end with "/", or contain "//", "." or ".." segments`);
  }
  return encodePath(mount);
}

/** Shared calls of the engine clients: reads that answer undefined on 404, writes, lists. */
export abstract class EngineClient {
  constructor(protected readonly secrets: SecretsClient, protected readonly constructPath?: string) {}

  /** GET; undefined when absent (404). */
  protected async read<T>(path: string): Promise<SecretsEnvelope<T> | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<T>>({ method: 'GET', path, accept: [404], constructPath: this.constructPath });
    return res.status === 404 ? undefined : res.body;
  }

  /** A call whose answer is the whole envelope (undefined for 204). */
  protected async call<T>(method: string, path: string, body?: unknown): Promise<SecretsEnvelope<T> | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<T> | undefined>({ method, path, body, constructPath: this.constructPath });
    return res.status === 204 ? undefined : res.body;
  }

  protected names(path: string): Promise<string[]> {
    return this.secrets.list(path, this.constructPath);
  }
}
