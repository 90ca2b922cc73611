import { tokenHeaderValues } from '../../core/http/api-profile';
import { HttpClient, HttpClientOptions } from '../../core/http/http-client';
import { MESH_API_PROFILE } from '../api-profile';
import { CompiledChain } from '../compiler/chain';
import { ConfigEntryJson, MeshConfigEntries } from '../config-entry/config-entry-client';
import { DiscoveryChainOptions, MeshDiscoveryChains } from '../discovery-chain/discovery-chain-client';
import { MeshBlockingOptions, MeshQueryResult, MeshReadOptions } from './transport';

// The facade's types, where its callers have always imported them.
export type { MeshBlockingOptions, MeshQueryResult, MeshReadOptions } from './transport';
export type { ConfigEntryJson } from '../config-entry/config-entry-client';
export type { DiscoveryChainOptions } from '../discovery-chain/discovery-chain-client';

/** How to reach a mesh API. */
export interface MeshConnection {
  /** Address without the `/v1` prefix, e.g. `http://127.0.0.1:8500`. */
  readonly address: string;
  readonly token: string;
  /**
   * The header that carries the token: the spec's `X-Mesh-Token`, or a real Consul server's `X-Consul-Token`
   * or `Authorization` (sent as `Bearer <token>`). @default "X-Mesh-Token"
   */
  readonly tokenHeader?: 'X-Mesh-Token' | 'X-Consul-Token' | 'Authorization';
  /**
   * Further HttpClient options. A blocking query holds its request open for up to `wait`:
   * keep `wait` below `timeoutMs` (30 s unless set here).
   */
  readonly options?: Partial<Omit<HttpClientOptions, 'baseUrl' | 'authHeaders' | 'api'>>;
}

/**
 * A typed client of the mesh API (`/v1`): the discovery chain and configuration entries, a facade over
 * the family clients (`configEntries`, `discoveryChains`); the ACL clients take its `http`.
 *
 * Authentication: the ACL token is sent as `X-Mesh-Token` on every request, the mesh system's
 * own header (named as the spec names the API); the server also accepts `Authorization:
 * Bearer <token>`, but `X-Mesh-Token` is chosen because it never collides with a proxy's or
 * load balancer's use of `Authorization`. The token never appears in an error.
 */
export class MeshClient {
  /** A client authenticated with a token. */
  public static connect(c: MeshConnection): MeshClient {
    return new MeshClient(new HttpClient({
      tokenVariable: 'MESH_HTTP_TOKEN',
      ...(c.options ?? {}),
      api: MESH_API_PROFILE.api,
      rules: MESH_API_PROFILE,
      baseUrl: c.address.replace(/\/+$/, '').replace(/\/v1$/, ''),
      authHeaders: tokenHeaderValues(c.tokenHeader ?? MESH_API_PROFILE.tokenHeaders.names[0], c.token),
    }));
  }

  /** Wraps an HttpClient whose base URL is the mesh address (without `/v1`), already authenticated. */
  constructor(public readonly http: HttpClient) {
    this.configEntries = new MeshConfigEntries(http);
    this.discoveryChains = new MeshDiscoveryChains(http);
  }

  /** The configuration-entry calls (`/v1/config`). */
  public readonly configEntries: MeshConfigEntries;
  /** The discovery-chain read (`/v1/discovery-chain`). */
  public readonly discoveryChains: MeshDiscoveryChains;

  /** The compiled discovery chain of a service (see `MeshDiscoveryChains.read`). */
  public discoveryChain(service: string, o: DiscoveryChainOptions = {}, constructPath?: string): Promise<MeshQueryResult<CompiledChain>> {
    return this.discoveryChains.read(service, o, constructPath);
  }

  /** Writes a configuration entry (see `MeshConfigEntries.put`). */
  public putConfigEntry(entry: ConfigEntryJson, o: { cas?: number; namespace?: string } = {}, constructPath?: string): Promise<boolean> {
    return this.configEntries.put(entry, o, constructPath);
  }

  /** Reads a configuration entry; undefined when absent (see `MeshConfigEntries.get`). */
  public getConfigEntry(kind: string, name: string, o: MeshReadOptions = {}, constructPath?: string): Promise<ConfigEntryJson | undefined> {
    return this.configEntries.get(kind, name, o, constructPath);
  }

  /** Lists the entries of a kind, or blocks on them (see `MeshConfigEntries.list`). */
  public listConfigEntries(kind: string, o: MeshBlockingOptions = {}, constructPath?: string): Promise<MeshQueryResult<ConfigEntryJson[]>> {
    return this.configEntries.list(kind, o, constructPath);
  }

  /** Deletes a configuration entry (see `MeshConfigEntries.delete`). */
  public deleteConfigEntry(kind: string, name: string, o: { cas?: number; namespace?: string } = {}, constructPath?: string): Promise<boolean> {
    return this.configEntries.delete(kind, name, o, constructPath);
  }

  public close(): Promise<void> {
    return this.http.close();
  }
}
