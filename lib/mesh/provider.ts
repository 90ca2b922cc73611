import { Construct } from 'constructs';
import { ApiProvider, ApiProviderProps } from '../core/constructs/api-provider';

/** Props of the mesh API provider. */
export interface MeshProviderProps extends ApiProviderProps {}

/**
 * How the mesh constructs of a stack reach the mesh API: its address and the environment
 * variable that holds the token (the token is never synthesized).
 *
 * @example
 * new mesh.MeshProvider(stack, 'mesh', { addressEnv: 'MESH_PROD_ADDR', tokenEnv: 'MESH_PROD_TOKEN' });
 */
export class MeshProvider extends ApiProvider {
  constructor(scope: Construct, id: string, props: MeshProviderProps = {}) {
    super(scope, id, 'mesh', props);
  }
}
