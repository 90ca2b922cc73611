import { Construct } from 'constructs';
import { DataSource } from '../core/constructs/resource';
import { checkOneOf, ValidationError } from '../core/constructs/validation';
import { canonicalDuration } from './compiler/duration';
import { MeshGatewayMode, MeshProtocol } from './mesh-types';
import { MeshProvider } from './provider';

/** Overrides of a compiled chain (the endpoint's POST body). */
export interface DiscoveryChainOverrides {
  /**
   * Replaces the connect timeout of every resolver (a duration).
   * @default - none
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
  private readonly props: DiscoveryChainProps;

  constructor(scope: Construct, id: string, props: DiscoveryChainProps) {
    super(scope, id, 'mesh.DiscoveryChain', 'mesh', props.provider, props);
    this.props = props;
    if (typeof props.service !== 'string' || props.service === '') throw new ValidationError(this, 'service', 'is required');
    if (props.service.includes('/') || props.service === '.' || props.service === '..') {
      throw new ValidationError(this, 'service', `"${props.service}" must not contain "/" or be "." or ".." (the API reads the chain at /v1/discovery-chain/<service>)`);
    }
    for (const f of ['namespace', 'compileDatacenter'] as const) {
      if (props[f] !== undefined && typeof props[f] !== 'string') throw new ValidationError(this, f, `must be a string (got ${JSON.stringify(props[f])})`);
    }
    const o = props.overrides ?? {};
    if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new ValidationError(this, 'overrides', 'must be an object');
    if (o.connectTimeout !== undefined) {
      let canonical = '';
      try { canonical = canonicalDuration(o.connectTimeout) ?? ''; } catch (e) {
        throw new ValidationError(this, 'overrides.connectTimeout', (e as Error).message);
      }
      if (canonical.startsWith('-')) {
        throw new ValidationError(this, 'overrides.connectTimeout', `"${o.connectTimeout}" must not be negative`);
      }
    }
    checkOneOf(this, 'overrides.protocol', o.protocol, Object.values(MeshProtocol));
    checkOneOf(this, 'overrides.meshGatewayMode', o.meshGatewayMode, Object.values(MeshGatewayMode));
  }

  /** The chain's protocol. */
  public get protocol(): any { return this._attrRef('protocol'); }
  /** The start node's key (`router:web`, `splitter:web`, `resolver:web.default.dc1`). */
  public get startNode(): any { return this._attrRef('startNode'); }
  /** The target ids, sorted. */
  public get targets(): any { return this._attrRef('targets'); }
  /** The whole compiled chain as a JSON string. */
  public get chain(): any { return this._attrRef('chain'); }
  /** The customization hash, empty when the overrides changed nothing. */
  public get customizationHash(): any { return this._attrRef('customizationHash'); }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    const o = p.overrides ?? {};
    return {
      service: p.service,
      namespace: p.namespace || 'default',
      compileDatacenter: p.compileDatacenter ?? '',
      overrides: {
        connectTimeout: o.connectTimeout === undefined ? '0s' : canonicalDuration(o.connectTimeout),
        protocol: o.protocol ?? '',
        meshGatewayMode: o.meshGatewayMode ?? '',
      },
    };
  }
}
