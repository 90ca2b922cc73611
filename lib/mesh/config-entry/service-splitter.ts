import { Construct } from 'constructs';
import { KindSchema } from '../../core/schema';
import { MeshConfigEntry, MeshConfigEntryProps } from './config-entry';
import { SERVICE_SPLITTER } from './service-splitter.schema';

/** One share of a split. */
export interface ServiceSplit {
  /** Share of the traffic, 0 to 100 (hundredths count); all weights sum to 100. */
  readonly weight: number;
  /**
   * The service this share goes to.
   * @default - this service
   */
  readonly service?: string;
  /**
   * The subset this share goes to.
   * @default - the service's default subset
   */
  readonly serviceSubset?: string;
  /**
   * The namespace of the service.
   * @default - this entry's namespace
   */
  readonly namespace?: string;
}

/** Props of a `service-splitter` configuration entry. */
export interface ServiceSplitterProps extends MeshConfigEntryProps {
  /** The service whose traffic is split. A change replaces the entry. */
  readonly name: string;
  /** The splits: weights sum to 100, each destination once. */
  readonly splits: ServiceSplit[];
}

/**
 * A `service-splitter` configuration entry: shares of a service's traffic to subsets or other
 * services. Needs an L7 protocol (http, http2, grpc): the ServiceDefaults/ProxyDefaults and the
 * ServiceResolvers (subsets) of the same stack are ordered before it automatically.
 *
 * @example
 * new mesh.ServiceSplitter(stack, 'web-split', {
 *   name: 'web', splits: [{ weight: 90, serviceSubset: 'v1' }, { weight: 10, serviceSubset: 'v2' }],
 * });
 */
export class ServiceSplitter extends MeshConfigEntry {
  constructor(scope: Construct, id: string, props: ServiceSplitterProps) {
    super(scope, id, SERVICE_SPLITTER.kind, props);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return SERVICE_SPLITTER;
  }
}
