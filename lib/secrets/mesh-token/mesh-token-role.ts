import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check, checkDuration } from '../../core/constructs/validation';
import { checkMount } from '../kv/kv-validation';
import { checkOptString, checkOptStringArray, checkSegmentName } from '../prop-checks';
import { SecretsProvider } from '../provider';
import { normalDurationString } from '../../core/duration';
import { stringSet } from '../../core/string-set';

/** Type of token of mesh versions below 1.11. */
export enum MeshTokenType {
  /** A client token with the role's policy. */
  CLIENT = 'client',
  /** A management token. */
  MANAGEMENT = 'management',
}

/** Props of a mesh-token role. Which fields apply depends on `meshVersion`. */
export interface MeshTokenRoleProps extends ResourceProps {
  /**
   * Mount path of the mesh-token engine.
   * @default 'mesh'
   */
  readonly mount?: string;
  /** Name of the role. */
  readonly name: string;
  /**
   * Version of the mesh service (`major.minor[.patch]`); the fields allowed depend on it.
   * @default '1.13'
   */
  readonly meshVersion?: string;
  /**
   * Policies of the token (1.4 and above; required with 1.4).
   * @default []
   */
  readonly meshPolicies?: string[];
  /**
   * Mesh roles of the token (1.5 and above).
   * @default []
   */
  readonly meshRoles?: string[];
  /**
   * Service identities, `<service>:<datacenter>[,<datacenter>]` (1.5 and above).
   * @default []
   */
  readonly serviceIdentities?: string[];
  /**
   * Node identities, `<node>:<datacenter>` (1.8 and above).
   * @default []
   */
  readonly nodeIdentities?: string[];
  /**
   * Namespace of the token (1.8 and above; must exist).
   * @default 'default'
   */
  readonly meshNamespace?: string;
  /**
   * Admin partition of the token (1.11 and above; must exist).
   * @default 'default'
   */
  readonly partition?: string;
  /**
   * Whether the token stays in its datacenter (not replicated globally; 1.4 and above).
   * @default false
   */
  readonly local?: boolean;
  /**
   * Lease of a token (`"1h"` or seconds; `"0s"`: the service default; 1.4 and above).
   * @default '0s'
   */
  readonly ttl?: string;
  /**
   * Longest lease of a token (`"0s"`: the service default; 1.4 and above).
   * @default '0s'
   */
  readonly maxTtl?: string;
  /**
   * Token type (below 1.11 only; removed in 1.11).
   * @default - MeshTokenType.CLIENT below 1.11, none from 1.11
   */
  readonly tokenType?: MeshTokenType;
  /**
   * Base64 ACL policy (below 1.11 only; required below 1.4 unless the token type is management).
   * @default ''
   */
  readonly policy?: string;
  /**
   * Lease of a token (below 1.4 only, a duration).
   * @default ''
   */
  readonly lease?: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/** `major.minor` as a comparable number (1.4 -> 1004); NaN when not a version. */
function versionNumber(v: string): number {
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(v);
  return m ? Number(m[1]) * 1000 + Number(m[2]) : NaN;
}

/**
 * A role of the mesh-token engine (`{mount}/roles/<name>`), validated against the mesh
 * service's version (`meshVersion`) as the spec's table says: at least one of policies, roles,
 * service or node identities by version; `tokenType` and `policy` only below 1.11; `lease` only
 * below 1.4.
 *
 * @example
 * new secrets.MeshTokenRole(stack, 'web-token', {
 *   name: 'web',
 *   serviceIdentities: ['web:dc1'],
 *   ttl: '1h',
 * });
 */
export class MeshTokenRole extends Resource {
  /** Mount path of the engine. */
  public readonly mount: string;
  /** Name of the role. */
  public readonly name: string;
  private readonly props: MeshTokenRoleProps;
  private readonly version: number;

  constructor(scope: Construct, id: string, props: MeshTokenRoleProps) {
    super(scope, id, 'secrets.MeshTokenRole', 'secrets', props, props.provider);
    this.props = props;
    this.mount = props.mount ?? 'mesh';
    this.name = props.name;
    checkMount(this, this.mount);
    checkSegmentName(this, 'name', props.name);
    checkOptStringArray(this, 'meshPolicies', props.meshPolicies);
    checkOptString(this, 'ttl', props.ttl);
    checkOptString(this, 'maxTtl', props.maxTtl);
    const version = props.meshVersion ?? '1.13';
    this.version = versionNumber(version);
    check(!Number.isNaN(this.version), this, 'meshVersion', `"${version}" must be major.minor[.patch], e.g. 1.13`);
    this.validate(version);
  }

  private validate(version: string): void {
    const p = this.props;
    const v = this.version;
    const since = (field: keyof MeshTokenRoleProps, min: number, given: boolean) =>
      check(!given || v >= min, this, field, `needs mesh ${Math.floor(min / 1000)}.${min % 1000} or later (meshVersion is ${version})`);
    const before = (field: keyof MeshTokenRoleProps, max: number, given: boolean) =>
      check(!given || v < max, this, field, `was removed in mesh ${Math.floor(max / 1000)}.${max % 1000} (meshVersion is ${version})`);
    const policies = p.meshPolicies ?? [];
    const roles = p.meshRoles ?? [];
    const services = p.serviceIdentities ?? [];
    const nodes = p.nodeIdentities ?? [];
    since('meshPolicies', 1004, policies.length > 0);
    since('local', 1004, p.local !== undefined);
    since('ttl', 1004, p.ttl !== undefined);
    since('maxTtl', 1004, p.maxTtl !== undefined);
    since('meshRoles', 1005, roles.length > 0);
    since('serviceIdentities', 1005, services.length > 0);
    since('nodeIdentities', 1008, nodes.length > 0);
    since('meshNamespace', 1008, p.meshNamespace !== undefined);
    since('partition', 1011, p.partition !== undefined);
    before('tokenType', 1011, p.tokenType !== undefined);
    before('policy', 1011, !!p.policy);
    before('lease', 1004, !!p.lease);
    check(p.tokenType === undefined || Object.values(MeshTokenType).includes(p.tokenType), this, 'tokenType', `"${p.tokenType}" must be client or management`);
    const management = p.tokenType === MeshTokenType.MANAGEMENT;
    if (v < 1004) {
      check(management || !!p.policy, this, 'policy', 'is required below mesh 1.4 unless tokenType is management');
    } else if (v < 1005) {
      check(management || policies.length > 0 || !!p.policy, this, 'meshPolicies', 'is required with mesh 1.4');
    } else {
      const any = policies.length + roles.length + services.length + nodes.length > 0 || (v < 1011 && (management || !!p.policy));
      const which = v >= 1008 ? 'meshPolicies, meshRoles, serviceIdentities or nodeIdentities' : 'meshPolicies, meshRoles or serviceIdentities';
      check(any, this, 'meshPolicies', `: at least one of ${which} is required`);
    }
    for (const s of services) {
      check(/^[^:,\s]+(:[^:,\s]+(,[^:,\s]+)*)?$/.test(s), this, 'serviceIdentities', `"${s}" must be <service>:<datacenter>[,<datacenter>]`);
    }
    for (const n of nodes) check(/^[^:\s]+:[^:\s]+$/.test(n), this, 'nodeIdentities', `"${n}" must be <node>:<datacenter>`);
    const ttl = checkDuration(this, 'ttl', p.ttl, 0) ?? 0;
    const maxTtl = checkDuration(this, 'maxTtl', p.maxTtl, 0) ?? 0;
    check(ttl === 0 || maxTtl === 0 || ttl <= maxTtl, this, 'ttl', `must not exceed maxTtl (${p.ttl} > ${p.maxTtl})`);
    if (p.lease) checkDuration(this, 'lease', p.lease, 0);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    const v = this.version;
    return {
      mount: this.mount, name: this.name, meshVersion: p.meshVersion ?? '1.13',
      ...(v >= 1004 ? { meshPolicies: stringSet(p.meshPolicies), local: p.local ?? false, ttl: normalDurationString(p.ttl ?? '0s'), maxTtl: normalDurationString(p.maxTtl ?? '0s') } : {}),
      ...(v >= 1005 ? { meshRoles: stringSet(p.meshRoles), serviceIdentities: stringSet(p.serviceIdentities) } : {}),
      ...(v >= 1008 ? { nodeIdentities: stringSet(p.nodeIdentities), meshNamespace: p.meshNamespace ?? 'default' } : {}),
      ...(v >= 1011 ? { partition: p.partition ?? 'default' } : {}),
      ...(v < 1011 ? { tokenType: p.tokenType ?? MeshTokenType.CLIENT, policy: p.policy ?? '' } : {}),
      ...(v < 1004 ? { lease: p.lease ? normalDurationString(p.lease) : '' } : {}),
    };
  }
}
