import { KindSchema } from '../../core/schema';
import { MESH_GATEWAY_MODES, MESH_PROTOCOLS } from '../shared/mesh-fields';

/**
 * `mesh.DiscoveryChain`: the request of `/v1/discovery-chain/<service_name>` (path, query and the
 * POST body of overrides, spelt as the spec spells them) and the outputs read from the compiled chain.
 * `OverrideConnectTimeout` is a Go duration in the mesh's form (`1m0s`); `0s`, like the other empty
 * overrides, overrides nothing.
 */
export const DISCOVERY_CHAIN: KindSchema = {
  kind: 'mesh.DiscoveryChain',
  api: 'mesh',
  wireCase: 'pascal',
  fields: {
    service: {
      type: 'string', required: true, wire: 'service_name', pattern: /^(?!\.\.?$)[^/\u0000-\u001f\u007f"\\*{}]*$/,
      patternRule: 'must not contain "/", a control character, a quote, a backslash, "*", "{" or "}", nor be "." or ".." ' +
        '(the API reads the chain at /v1/discovery-chain/<service>, and the name is quoted in an ACL policy)',
    },
    namespace: { type: 'string', wire: 'ns', default: 'default' },
    compileDatacenter: { type: 'string', wire: 'compile-dc', default: '' },
    overrides: {
      type: 'object', default: {},
      fields: {
        connectTimeout: { type: 'string', wire: 'OverrideConnectTimeout', default: '0s' },
        protocol: { type: 'string', wire: 'OverrideProtocol', oneOf: MESH_PROTOCOLS, default: '' },
        // On the wire the mode of an `OverrideMeshGateway` object.
        meshGatewayMode: { type: 'string', wire: 'OverrideMeshGateway', oneOf: MESH_GATEWAY_MODES, default: '' },
      },
    },
  },
  outputs: {
    protocol: { type: 'string' },
    startNode: { type: 'string' },
    targets: { type: 'json' },
    targetIds: { type: 'string' },
    customizationHash: { type: 'string' },
    chain: { type: 'string' },
  },
};
