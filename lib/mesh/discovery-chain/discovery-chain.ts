import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { entriesOfChain } from '../config-entry/config-entry';
import { DataSource } from '../../core/constructs/resource';
import { reject } from '../../core/constructs/validation';
import { KindSchema, renderSpec } from '../../core/schema';
import { canonicalDuration } from '../compiler/duration';
import { DISCOVERY_CHAIN } from './discovery-chain.schema';
import { MeshGatewayMode, MeshProtocol } from '../shared/mesh-types';
import { MeshProvider } from '../provider';

/** Overrides of a compiled chain (the endpoint's POST body). */
export interface DiscoveryChainOverrides {
  /**
   * Replaces the connect timeout of every resolver (a duration).
   * @default '0s' (overrides nothing)
   */
  readonly connectTimeout?: string;
  /**
   * Replaces the chain's protocol (`tcp` drops routers and splitters).
   * @default - none
   */
  readonly protocol?: MeshProtocol;
  /**
   * Replaces the mesh gateway mode of targets in other datacenters.
   * @default - none
   */
  readonly meshGatewayMode?: MeshGatewayMode;
}

/** Props of the DiscoveryChain data source. */
export interface DiscoveryChainProps {
  /** The service whose chain is read. */
  readonly service: string;
  /**
   * Source namespace of compilation.
   * @default 'default'
   */
  readonly namespace?: string;
  /**
   * Datacenter used as the basis of compilation.
   * @default - the agent's datacenter
   */
  readonly compileDatacenter?: string;
  /**
   * Overrides; with any, the chain is read with a POST.
   * @default - none
   */
  readonly overrides?: DiscoveryChainOverrides;
  /**
   * How to reach the mesh API.
   * @default - the stack's MeshProvider, else `MESH_HTTP_ADDR` and `MESH_HTTP_TOKEN`
   */
  readonly provider?: MeshProvider;
}

/**
 * The compiled discovery chain of a service, read at plan time. Its outputs (protocol, start
 * node, target ids, the chain as JSON) can feed other constructs.
 *
 * @example
 * const chain = new mesh.DiscoveryChain(stack, 'web-chain', { service: 'web', compileDatacenter: 'dc2' });
 */
export class DiscoveryChain extends DataSource {
  /** The overrides' connect timeout in the mesh's form (`1m0s`). @internal */
  private readonly _connectTimeout?: string;

  constructor(scope: Construct, id: string, props: DiscoveryChainProps) {
    super(scope, id, DISCOVERY_CHAIN.kind, DISCOVERY_CHAIN.api, props.provider, props);
    if (props.service === '') reject(this, 'service', 'is required');
    const timeout = props.overrides?.connectTimeout;
    if (timeout !== undefined) {
      try {
        this._connectTimeout = canonicalDuration(timeout);
      } catch (e) {
        reject(this, 'overrides.connectTimeout', (e as Error).message);
      }
      if (this._connectTimeout?.startsWith('-')) reject(this, 'overrides.connectTimeout', `"${timeout}" must not be negative`);
    }
  }

  /** The chain's protocol (`tcp`, `http`, `http2`, `grpc`). */
  public get protocol(): string { return this._attrString('protocol'); }
  /** The start node's key as the server answers it (`router:web`, `resolver:web.default.dc1`; Consul 1.16: `router:web.default.default`). */
  public get startNode(): string { return this._attrString('startNode'); }
  /** The target ids as the server answers them (`[<subset>.]<service>.<namespace>.<datacenter>`; Consul 1.16 adds the partition before the datacenter), sorted, joined by commas. */
  public get targetIds(): string { return this._attrString('targetIds'); }
  /** The whole compiled chain as a JSON string. */
  public get chain(): string { return this._attrString('chain'); }
  /** The customization hash, empty when the overrides changed nothing. */
  public get customizationHash(): string { return this._attrString('customizationHash'); }

  /** @internal */
  protected _schema(): KindSchema {
    return DISCOVERY_CHAIN;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    // Read after every entry of the app that compiles into its chain is written: what it feeds is the
    // chain this apply leaves (a removed entry is ordered by the engine: read after its removal).
    const existing = new Set(this.node.dependencies);
    for (const e of entriesOfChain(TerraformStack.of(this), this._props.service, this._props.namespace ?? 'default')) {
      if (!existing.has(e)) this.node.addDependency(e);
    }
    const overrides = { ...this._props.overrides, ...(this._connectTimeout ? { connectTimeout: this._connectTimeout } : {}) };
    return renderSpec(DISCOVERY_CHAIN.fields, { ...this._props, overrides });
  }
}
