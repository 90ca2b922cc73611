import { Construct } from 'constructs';
import { ApiProvider, ApiProviderProps } from '../core/constructs/api-provider';
import { parseTokenHeader } from '../core/http/api-profile';
import { MESH_API_PROFILE } from './api-profile';

/** The request header that carries the mesh token. */
export enum MeshTokenHeader {
  /** `X-Mesh-Token`, as the spec names it (the emulator's header). */
  MESH_TOKEN = 'X-Mesh-Token',
  /** `X-Consul-Token`: a real Consul server reached directly. */
  CONSUL_TOKEN = 'X-Consul-Token',
  /** `Authorization: Bearer <token>`: accepted by the emulator and by a real Consul server alike. */
  AUTHORIZATION_BEARER = 'Authorization',
}

/** Props of the mesh API provider. */
export interface MeshProviderProps extends ApiProviderProps {
  /**
   * The request header that carries the token. A real Consul server reads `X-Consul-Token` or
   * `Authorization: Bearer`, not the spec's `X-Mesh-Token`: choose one of those to reach it without a proxy.
   * @default - the `MESH_TOKEN_HEADER` environment variable (`X-Mesh-Token`, `X-Consul-Token` or `Authorization`), else `X-Mesh-Token`
   */
  readonly tokenHeader?: MeshTokenHeader;
}

/**
 * How the mesh constructs of a stack reach the mesh API: its address and the environment
 * variable that holds the token (the token is never synthesized).
 *
 * @example
 * new mesh.MeshProvider(stack, 'mesh', { addressEnv: 'MESH_PROD_ADDR', tokenEnv: 'MESH_PROD_TOKEN' });
 */
export class MeshProvider extends ApiProvider {
  /** The header that carries the token, if given. */
  public readonly tokenHeader?: MeshTokenHeader;

  constructor(scope: Construct, id: string, props: MeshProviderProps = {}) {
    super(scope, id, MESH_API_PROFILE.api, props);
    if (props.tokenHeader !== undefined) {
      // jsii languages may pass any string: refuse what the enum does not name.
      this.tokenHeader = parseTokenHeader(MESH_API_PROFILE.tokenHeaders, String(props.tokenHeader), `${this.node.path}: tokenHeader`, 'mesh') as MeshTokenHeader;
    }
  }

  /** @internal */
  public _transport(): ReturnType<ApiProvider['_transport']> & { tokenHeader?: string } {
    return { ...super._transport(), ...(this.tokenHeader ? { tokenHeader: this.tokenHeader } : {}) };
  }
}
