import { Construct } from 'constructs';
import { ExistingObject } from '../../core/constructs/existing-object';
import { KindSchema } from '../../core/schema';
import { MeshConfigEntry, MeshConfigEntryProps } from './config-entry';
import { entryId } from './entry-spec';
import { MeshGatewayConfig, MeshProtocol } from '../shared/mesh-types';
import { MeshProvider } from '../provider';
import { SERVICE_DEFAULTS } from './service-defaults.schema';

/** The service-defaults of a service: an entry this app manages, or one looked up with `ServiceDefaults.fromName`. */
export interface IServiceDefaults {
  /** The service these defaults apply to (the entry's name): what routers, splitters and resolvers name. */
  readonly serviceName: string;
  /** The namespace of the service. */
  readonly serviceNamespace: string;
  /** The service's protocol (lower case): `tcp`, `http`, `http2` or `grpc`. */
  readonly serviceProtocol: string;
}

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
export class ServiceDefaults extends MeshConfigEntry implements IServiceDefaults {
  /**
   * The service-defaults entry of a service that exists outside this app, by the service's name:
   * read at plan time (the plan fails, naming this construct, when there is none), never changed
   * nor deleted.
   * @param name the service's name
   * @param namespace the service's namespace (default: `default`)
   * @param provider the mesh provider to read it with (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, name: string, namespace?: string, provider?: MeshProvider): IServiceDefaults {
    return new ExistingServiceDefaults(scope, id, name, namespace ?? 'default', provider);
  }

  /** The service's protocol (lower case). */
  public readonly protocol: string;
  /** The service these defaults apply to. */
  public readonly serviceName: string;
  /** The namespace of the service. */
  public readonly serviceNamespace: string;
  /** The service's protocol (lower case). */
  public readonly serviceProtocol: string;

  constructor(scope: Construct, id: string, props: ServiceDefaultsProps) {
    super(scope, id, SERVICE_DEFAULTS.kind, props);
    this.protocol = props.protocol ?? MeshProtocol.TCP;
    this.serviceName = this.name;
    this.serviceNamespace = this.namespace;
    this.serviceProtocol = this.protocol;
  }

  /** @internal */
  protected _schema(): KindSchema {
    return SERVICE_DEFAULTS;
  }
}

/** The service-defaults of a service looked up by name (`ServiceDefaults.fromName`). */
class ExistingServiceDefaults extends ExistingObject implements IServiceDefaults {
  public readonly serviceName: string;
  public readonly serviceNamespace: string;

  constructor(scope: Construct, id: string, name: string, namespace: string, provider?: MeshProvider) {
    super(scope, id, SERVICE_DEFAULTS.kind, SERVICE_DEFAULTS.api, entryId(SERVICE_DEFAULTS.entryKind, name, namespace), 'name', provider);
    this.serviceName = name;
    this.serviceNamespace = namespace;
  }

  public get serviceProtocol(): string {
    return this._attrString('protocol');
  }
}
