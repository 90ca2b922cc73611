// The field vocabularies several mesh families' schemas share (the config entries and the
// discovery chain's overrides), beside the public enums they mirror (mesh-types.ts).

/** Protocols a mesh service speaks (`MeshProtocol`). */
export const MESH_PROTOCOLS = ['tcp', 'http', 'http2', 'grpc'] as const;
/** Mesh gateway modes (`MeshGatewayMode`); unset (`""`) inherits. */
export const MESH_GATEWAY_MODES = ['none', 'local', 'remote'] as const;
