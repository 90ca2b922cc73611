/** A service identity: the rules a service's own token needs (write on the service and its sidecar, read on the catalog). */
export interface AclServiceIdentity {
  /** The service's name (lower case letters, digits, `-`, `_`). */
  readonly serviceName: string;
  /**
   * The datacenters it applies in.
   * @default [] - every datacenter
   */
  readonly datacenters?: string[];
}

/** A node identity: the rules a node's agent token needs, in one datacenter. */
export interface AclNodeIdentity {
  /** The node's name. */
  readonly nodeName: string;
  /** The datacenter of the node. */
  readonly datacenter: string;
}
