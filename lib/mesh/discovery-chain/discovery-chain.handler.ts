import { DataSourceHandler } from '../../core/engine/handler';
import { dataSourceMetadata, toWire } from '../../core/schema';
import { MeshDiscoveryChains } from './discovery-chain-client';
import { ChainOverrides } from '../compiler/chain';
import { durationNs } from '../compiler/duration';
import { DISCOVERY_CHAIN } from './discovery-chain.schema';

/** The POST body of the overrides: only those that override something (`0s` and empty values do not). */
function overridesBody(overrides: Record<string, unknown> | undefined): ChainOverrides | undefined {
  const wire = toWire(DISCOVERY_CHAIN, DISCOVERY_CHAIN.fields.overrides.fields!, overrides ?? {}) as
    { OverrideConnectTimeout?: string; OverrideProtocol?: string; OverrideMeshGateway?: string };
  const body: ChainOverrides = {
    ...(durationNs(wire.OverrideConnectTimeout) > 0 ? { OverrideConnectTimeout: wire.OverrideConnectTimeout } : {}),
    ...(wire.OverrideProtocol ? { OverrideProtocol: wire.OverrideProtocol } : {}),
    ...(wire.OverrideMeshGateway ? { OverrideMeshGateway: { Mode: wire.OverrideMeshGateway } } : {}),
  };
  return Object.keys(body).length ? body : undefined;
}

/** Reads `mesh.DiscoveryChain`: the compiled chain (POST only with overrides). */
export const discoveryChainHandler: DataSourceHandler = {
  ...dataSourceMetadata(DISCOVERY_CHAIN),

  async read(ctx, spec) {
    const res = await new MeshDiscoveryChains(ctx.http).read(String(spec.service), {
      // Only outside the default namespace: a Community Edition server refuses any `ns`.
      namespace: spec.namespace && spec.namespace !== 'default' ? String(spec.namespace) : undefined,
      compileDatacenter: spec.compileDatacenter ? String(spec.compileDatacenter) : undefined,
      overrides: overridesBody(spec.overrides as Record<string, unknown> | undefined),
    }, ctx.address);
    const chain = res.value;
    const targets = Object.keys(chain.Targets).sort();
    return {
      protocol: chain.Protocol,
      startNode: chain.StartNode,
      targets,
      targetIds: targets.join(','),
      customizationHash: chain.CustomizationHash ?? '',
      chain: JSON.stringify(chain),
    };
  },
};
