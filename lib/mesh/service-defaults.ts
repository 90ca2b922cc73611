import { Construct } from 'constructs';
import { MeshConfigEntry, MeshConfigEntryProps } from './config-entry';
import { MeshGatewayConfig, MeshProtocol } from './mesh-types';

/** Props of a `service-defaults` configuration entry. */
export interface ServiceDefaultsProps extends MeshConfigEntryProps {
  /** The service these defaults apply to (not a wildcard). A change replaces the entry. */
  readonly name: string;
  /**
   * The service's protocol. While this entry exists it decides the protocol of the service
   * (proxy-defaults no longer apply); `http`, `http2` and `grpc` permit routers and splitters.
   * @default MeshProtocol.TCP
   */
  readonly protocol?: MeshProtocol;
  /**
   * Mesh gateway mode for the service's targets in other datacenters.
   * @default - inherited from proxy-defaults
   */
  readonly meshGateway?: MeshGatewayConfig;
  /**
   * An SNI that replaces the mesh's own in the service's targets (for a service outside the mesh).
   * @default - the mesh's SNI
   */
  readonly externalSni?: string;
}

/**
 * A `service-defaults` configuration entry: the protocol and mesh gateway mode of one service.
 *
 * @example
 * new mesh.ServiceDefaults(stack, 'web', { name: 'web', protocol: mesh.MeshProtocol.HTTP });
 */
export class ServiceDefaults extends MeshConfigEntry {
  /** The service's protocol (lower case). */
  public readonly protocol: string;

  constructor(scope: Construct, id: string, props: ServiceDefaultsProps) {
    super(scope, id, 'mesh.ServiceDefaults', 'service-defaults', props, {
      name: props.name, protocol: props.protocol ?? MeshProtocol.TCP, meshGateway: props.meshGateway, externalSni: props.externalSni,
    });
    this.protocol = this._spec.protocol;
  }
}
