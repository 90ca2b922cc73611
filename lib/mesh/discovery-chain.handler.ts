import { DataSourceHandler } from '../core/engine/handler';
import { MeshClient } from './client/mesh-client';
import { ChainOverrides } from './compiler/chain';
import { durationNs } from './compiler/duration';

/** Reads `mesh.DiscoveryChain`: the compiled chain (POST only with overrides). */
export const discoveryChainHandler: DataSourceHandler = {
  kind: 'mesh.DiscoveryChain',
  api: 'mesh',

  async read(ctx, spec) {
    const o = (spec.overrides ?? {}) as { connectTimeout?: string; protocol?: string; meshGatewayMode?: string };
    const overrides: ChainOverrides = {
      ...(durationNs(o.connectTimeout) > 0 ? { OverrideConnectTimeout: o.connectTimeout } : {}),
      ...(o.protocol ? { OverrideProtocol: o.protocol } : {}),
      ...(o.meshGatewayMode ? { OverrideMeshGateway: { Mode: o.meshGatewayMode } } : {}),
    };
    const res = await new MeshClient(ctx.http).discoveryChain(String(spec.service), {
      namespace: spec.namespace ? String(spec.namespace) : undefined,
      compileDatacenter: spec.compileDatacenter ? String(spec.compileDatacenter) : undefined,
      overrides: Object.keys(overrides).length ? overrides : undefined,
    }, ctx.address);
    const chain = res.value;
    return {
      protocol: chain.Protocol,
      startNode: chain.StartNode,
      targets: Object.keys(chain.Targets).sort(),
      customizationHash: chain.CustomizationHash ?? '',
      chain: JSON.stringify(chain),
    };
  },
};
