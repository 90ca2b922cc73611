import { Construct } from 'constructs';
import { ResourceProps } from '../../core/constructs/resource';
import { ISecretsEngineRole, SecretsEngineRole } from '../shared/engine-role';
import { check, durationSeconds, reject } from '../../core/constructs/validation';
import { KindSchema, renderSpec } from '../../core/schema';
import { ExistingEngineRole } from '../shared/existing-role';
import { MESH_TOKEN_MOUNT, mountFromRef, mountPathOf, useMountRef } from '../shared/mount-ref';
import { SecretsProvider } from '../provider';
import { ISecretsMount } from '../sys/secrets-mount';
import { DEFAULT_MESH_VERSION, MESH_ROLE_FIELD_VERSIONS, MESH_TOKEN_ROLE, meshRoleFieldApplies, meshVersionNumber } from './mesh-token-role.schema';

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
  /**
   * The engine's mount as a construct (a `SecretsMount` of this app, of type `mesh`), instead of `mount`:
   * this construct is created after it, destroyed before it, and planned as new until it exists.
   * @default - the mount at `mount`
   */
  readonly secretsMount?: ISecretsMount;
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

/** A role of a mesh-token engine: one this app manages, or one looked up with `MeshTokenRole.fromName`. */
export interface IMeshTokenRole extends ISecretsEngineRole {}

/**
 * A role of the mesh-token engine (`{mount}/roles/<name>`), validated against the mesh
 * service's version (`meshVersion`) as the spec's table says: at least one of policies, roles,
 * service or node identities by version; `tokenType` and `policy` only below 1.11; `lease` only
 * below 1.4. `MeshTokenCredentials` reads its tokens.
 *
 * @example
 * new secrets.MeshTokenRole(stack, 'web-token', {
 *   name: 'web',
 *   serviceIdentities: ['web:dc1'],
 *   ttl: '1h',
 * });
 */
export class MeshTokenRole extends SecretsEngineRole implements IMeshTokenRole {
  /**
   * A role that exists outside this app: read at plan time (the plan fails, naming this construct,
   * when it does not exist), never changed nor deleted.
   * @param mount mount path of the mesh-token engine
   * @param name name of the role
   * @param provider how to reach the secrets service (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, mount: string, name: string, provider?: SecretsProvider): IMeshTokenRole {
    return new ExistingEngineRole(scope, id, MESH_TOKEN_ROLE, 'roles', mount, name, provider);
  }

  private readonly version: number;

  constructor(scope: Construct, id: string, props: MeshTokenRoleProps) {
    super(scope, id, MESH_TOKEN_ROLE.kind, mountFromRef(props), mountPathOf(props, MESH_TOKEN_MOUNT), props.name, ['ttl', 'maxTtl', 'lease'], props.provider);
    useMountRef(this, props, MESH_TOKEN_MOUNT);
    const version = props.meshVersion ?? DEFAULT_MESH_VERSION;
    this.version = meshVersionNumber(version);
    this.validate(version);
  }

  /** The rules that depend on the mesh version and on several fields (the schema checks each field). */
  private validate(version: string): void {
    const p = this._props as MeshTokenRoleProps;
    const v = this.version;
    const given = (field: string): boolean => {
      const x = this._props[field];
      return Array.isArray(x) ? x.length > 0 : field === 'policy' || field === 'lease' ? !!x : x !== undefined;
    };
    for (const field of Object.keys(MESH_ROLE_FIELD_VERSIONS)) {
      if (!given(field) || meshRoleFieldApplies(field, v)) continue;
      const [from, before] = MESH_ROLE_FIELD_VERSIONS[field];
      const at = (n: number) => `${Math.floor(n / 1000)}.${n % 1000}`;
      reject(this, field, v < from ? `needs mesh ${at(from)} or later (meshVersion is ${version})` : `was removed in mesh ${at(before)} (meshVersion is ${version})`);
    }
    const policies = p.meshPolicies ?? [];
    const roles = p.meshRoles ?? [];
    const services = p.serviceIdentities ?? [];
    const nodes = p.nodeIdentities ?? [];
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
    const ttl = durationSeconds(p.ttl ?? 0);
    const maxTtl = durationSeconds(p.maxTtl ?? 0);
    check(ttl === 0 || maxTtl === 0 || ttl <= maxTtl, this, 'ttl', `must not exceed maxTtl (${p.ttl} > ${p.maxTtl})`);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return MESH_TOKEN_ROLE;
  }

  /** The schema's rendering, keeping only the fields of the role's mesh version. @internal */
  protected _renderSpec(): Record<string, any> {
    const spec = renderSpec(MESH_TOKEN_ROLE.fields, this._props);
    for (const k of Object.keys(spec)) if (!meshRoleFieldApplies(k, this.version)) delete spec[k];
    return spec;
  }
}
