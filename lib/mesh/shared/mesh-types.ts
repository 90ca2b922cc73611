/** Protocols a mesh service speaks; `http`, `http2` and `grpc` permit routers and splitters. */
export enum MeshProtocol {
  /** Plain TCP: no routers or splitters. */
  TCP = 'tcp',
  /** HTTP/1.1. */
  HTTP = 'http',
  /** HTTP/2. */
  HTTP2 = 'http2',
  /** gRPC. */
  GRPC = 'grpc',
}

/** How traffic to another datacenter goes through mesh gateways. */
export enum MeshGatewayMode {
  /** No mesh gateway: connect directly. */
  NONE = 'none',
  /** Through the local datacenter's mesh gateway. */
  LOCAL = 'local',
  /** Through the remote datacenter's mesh gateway. */
  REMOTE = 'remote',
}

/** Mesh gateway settings. */
export interface MeshGatewayConfig {
  /**
   * The mode for targets in other datacenters.
   * @default - unset: inherited (service-defaults, then proxy-defaults), else direct
   */
  readonly mode?: MeshGatewayMode;
}
