import { Construct } from 'constructs';
import { KindSchema } from '../../core/schema';
import { MeshConfigEntry, MeshConfigEntryProps } from './config-entry';
import { SERVICE_RESOLVER } from './service-resolver.schema';

/** A named subset of a service's instances. */
export interface ResolverSubset {
  /**
   * Filter expression over the catalog (`Service.Meta.version == v1`).
   * @default - every instance
   */
  readonly filter?: string;
  /**
   * Only instances whose checks all pass (warning counts as failing).
   * @default false
   */
  readonly onlyPassing?: boolean;
}

/** Where a resolver sends all traffic instead. At least one field; `serviceSubset` and `namespace` need `service`. */
export interface ResolverRedirect {
  /**
   * The service to send traffic to.
   * @default - this service
   */
  readonly service?: string;
  /**
   * The subset of that service.
   * @default - the target service's default subset
   */
  readonly serviceSubset?: string;
  /**
   * The namespace of that service.
   * @default - this entry's namespace
   */
  readonly namespace?: string;
  /**
   * The datacenter to send traffic to.
   * @default - the datacenter of compilation
   */
  readonly datacenter?: string;
}

/** Where traffic goes when a subset (or every subset, `*`) has no healthy instance. */
export interface ResolverFailover {
  /**
   * The service to fail over to.
   * @default - this service
   */
  readonly service?: string;
  /**
   * The subset to fail over to.
   * @default - the same subset
   */
  readonly serviceSubset?: string;
  /**
   * The namespace to fail over to.
   * @default - this entry's namespace
   */
  readonly namespace?: string;
  /**
   * Datacenters to try, in order.
   * @default - the same datacenter
   */
  readonly datacenters?: string[];
}

/** Props of a `service-resolver` configuration entry. */
export interface ServiceResolverProps extends MeshConfigEntryProps {
  /** The service resolved. A change replaces the entry. */
  readonly name: string;
  /**
   * Timeout of new connections to the service's instances (a duration: `"15s"`, `"1m"`).
   * @default - "0s": the mesh's 5s
   */
  readonly connectTimeout?: string;
  /**
   * The subset used when none is asked for.
   * @default - no subset: every instance
   */
  readonly defaultSubset?: string;
  /**
   * Named subsets (names are DNS labels: lower case letters, digits and `-`).
   * @default {}
   */
  readonly subsets?: { [name: string]: ResolverSubset };
  /**
   * Sends all traffic to another service, subset, namespace or datacenter. Not with `failover`.
   * @default - no redirect
   */
  readonly redirect?: ResolverRedirect;
  /**
   * Failover per subset name, or `*` for every subset. Not with `redirect`.
   * @default {}
   */
  readonly failover?: { [subset: string]: ResolverFailover };
}

/**
 * A `service-resolver` configuration entry: subsets, default subset, redirect, failover and
 * connect timeout of one service.
 *
 * @example
 * new mesh.ServiceResolver(stack, 'web-resolver', {
 *   name: 'web', connectTimeout: '15s', defaultSubset: 'v1',
 *   subsets: { v1: { filter: 'Service.Meta.version == v1' }, v2: { filter: 'Service.Meta.version == v2' } },
 *   failover: { '*': { datacenters: ['dc2'] } },
 * });
 */
export class ServiceResolver extends MeshConfigEntry {
  constructor(scope: Construct, id: string, props: ServiceResolverProps) {
    super(scope, id, SERVICE_RESOLVER.kind, props);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return SERVICE_RESOLVER;
  }
}
