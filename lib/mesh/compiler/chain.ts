/** The compiled discovery chain, in the shape the discovery-chain endpoint answers (`{"Chain": …}`). */

export interface CompiledTarget {
  ID: string;
  Service: string;
  ServiceSubset?: string;
  Namespace: string;
  /** Consul 1.16 only: the partition (`default`). */
  Partition?: string;
  Datacenter: string;
  /** `{}` when no mode applies (targets in the queried agent's own datacenter). */
  MeshGateway: { Mode?: string };
  /** `{}`; a subset's `Filter` when it has one, `OnlyPassing` only when true (Go's omitempty). */
  Subset: { Filter?: string; OnlyPassing?: boolean };
  /** True when `SNI` comes from a service-defaults `ExternalSNI`. */
  External?: boolean;
  SNI: string;
  Name: string;
}

export interface CompiledRoute { Definition: unknown; NextNode: string }
export interface CompiledSplit { Weight: number; NextNode: string }
export interface CompiledResolver {
  Default?: boolean;
  ConnectTimeout: string;
  Target: string;
  Failover?: { Targets: string[] };
}

export interface ChainNode {
  Type: 'resolver' | 'router' | 'splitter';
  Name: string;
  Routes?: CompiledRoute[];
  Splits?: CompiledSplit[];
  Resolver?: CompiledResolver;
}

export interface CompiledChain {
  ServiceName: string;
  Namespace: string;
  /** Consul 1.16 only: the partition (`default`). */
  Partition?: string;
  /** Consul 1.16 only: true when no entry shapes the chain. */
  Default?: boolean;
  Datacenter: string;
  /** Present only when some override changed the result. */
  CustomizationHash?: string;
  Protocol: string;
  StartNode: string;
  Nodes: Record<string, ChainNode>;
  Targets: Record<string, CompiledTarget>;
}

/** Overrides of a POST, in the API's field names. */
export interface ChainOverrides {
  /** Go duration string or nanoseconds. */
  OverrideConnectTimeout?: string | number;
  OverrideProtocol?: string;
  OverrideMeshGateway?: { Mode?: string };
}

/** A set of entries that cannot be compiled into a chain (answered 500 with the message). */
export class CompileError extends Error {}
