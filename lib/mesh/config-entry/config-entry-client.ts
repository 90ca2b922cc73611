import { HttpClient } from '../../core/http/http-client';
import { blockingTimeoutMs, MeshBlockingOptions, MeshQueryResult, MeshReadOptions, queryResult, readHeaders, readQuery, segment } from '../client/transport';

/** A configuration entry as read, in the mesh system's JSON shape. */
export type ConfigEntryJson = Record<string, unknown> & { Kind: string; Name: string; CreateIndex?: number; ModifyIndex?: number; Namespace?: string };

/** The configuration-entry calls of the mesh API (`/v1/config`). */
export class MeshConfigEntries {
  /** Over an HttpClient whose base URL is the mesh address (without `/v1`), already authenticated. */
  constructor(private readonly http: HttpClient) {}

  /** Writes a configuration entry; with `cas`, only if its ModifyIndex is `cas` (0: only if absent). False when the check failed. */
  public async put(entry: ConfigEntryJson, o: { cas?: number; namespace?: string } = {}, constructPath?: string): Promise<boolean> {
    const res = await this.http.request<boolean>({
      method: 'PUT', path: '/v1/config', query: { cas: o.cas, ns: o.namespace }, body: entry, constructPath,
      // A check-and-set write is not idempotent: repeated after a lost answer, it reports its own
      // first write as a conflict. Left to the engine, which reads back before trying again.
      idempotent: o.cas === undefined,
    });
    return res.body === true;
  }

  /** Reads a configuration entry; undefined when absent (404). */
  public async get(kind: string, name: string, o: MeshReadOptions = {}, constructPath?: string): Promise<ConfigEntryJson | undefined> {
    const res = await this.http.request<ConfigEntryJson>({
      method: 'GET', path: `/v1/config/${segment(kind, 'kind')}/${segment(name, 'name')}`,
      query: readQuery(o), headers: readHeaders(o), accept: [404], constructPath,
    });
    return res.status === 404 ? undefined : res.body;
  }

  /**
   * Lists the entries of a kind in a namespace (`*`: every namespace); with `index` (and `wait`), a
   * blocking query that answers when an entry of the kind changes.
   */
  public async list(kind: string, o: MeshBlockingOptions = {}, constructPath?: string): Promise<MeshQueryResult<ConfigEntryJson[]>> {
    const blocking = !!o.index && o.index > 0;
    const res = await this.http.request<ConfigEntryJson[]>({
      method: 'GET', path: `/v1/config/${segment(kind, 'kind')}`,
      query: { ...readQuery(o), ...(blocking ? { index: o.index, wait: o.wait } : {}) },
      headers: readHeaders(o), constructPath,
      ...(blocking ? { timeoutMs: blockingTimeoutMs(o.wait) } : {}),
    });
    return queryResult(res, res.body ?? []);
  }

  /** Deletes a configuration entry (absent is success); with `cas`, only at that ModifyIndex: false when the check failed. */
  public async delete(kind: string, name: string, o: { cas?: number; namespace?: string } = {}, constructPath?: string): Promise<boolean> {
    const res = await this.http.request<unknown>({
      method: 'DELETE', path: `/v1/config/${segment(kind, 'kind')}/${segment(name, 'name')}`,
      query: { cas: o.cas, ns: o.namespace }, constructPath, idempotent: o.cas === undefined,
    });
    return res.body !== false;
  }
}
