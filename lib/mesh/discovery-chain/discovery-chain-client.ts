import { HttpClient } from '../../core/http/http-client';
import { ChainOverrides, CompiledChain } from '../compiler/chain';
import { MeshQueryResult, MeshReadOptions, queryResult, readHeaders, readQuery, segment } from '../client/transport';

/** Options of a discovery-chain read. */
export interface DiscoveryChainOptions extends MeshReadOptions {
  /** `compile-dc`: the datacenter used as the basis of compilation. @default the agent's */
  readonly compileDatacenter?: string;
  /** Overrides; the request is a POST only when one is set. */
  readonly overrides?: ChainOverrides;
  /** Blocking query: answer only once the index passes this one (or `wait` elapses). */
  readonly index?: number;
  /** Blocking query: longest wait, a Go duration (`30s`). */
  readonly wait?: string;
}

/** The discovery-chain read of the mesh API (`/v1/discovery-chain`). */
export class MeshDiscoveryChains {
  /** Over an HttpClient whose base URL is the mesh address (without `/v1`), already authenticated. */
  constructor(private readonly http: HttpClient) {}

  /**
   * The compiled discovery chain of a service: GET, or POST when overrides are given.
   * Compile errors come back as an `ApiError` with status 500 and the compiler's message.
   */
  public async read(service: string, o: DiscoveryChainOptions = {}, constructPath?: string): Promise<MeshQueryResult<CompiledChain>> {
    const hasOverrides = !!o.overrides && Object.values(o.overrides).some((v) => v !== undefined && v !== '' && v !== 0
      && !(typeof v === 'object' && !(v as { Mode?: string }).Mode));
    const res = await this.http.request<{ Chain: CompiledChain }>({
      method: hasOverrides ? 'POST' : 'GET',
      path: `/v1/discovery-chain/${segment(service, 'service')}`,
      query: { ...readQuery(o), 'compile-dc': o.compileDatacenter, index: o.index, wait: o.wait },
      headers: readHeaders(o),
      body: hasOverrides ? o.overrides : undefined,
      // A POST with overrides only reads: safe to retry.
      idempotent: true,
      constructPath,
    });
    return queryResult(res, res.body.Chain);
  }
}
