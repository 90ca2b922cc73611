import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { MeshProvider } from '../provider';
import { ACL_POLICY } from './acl-policy.schema';

/** Props of a mesh ACL policy. */
export interface AclPolicyProps extends ResourceProps {
  /** The policy's name (letters, digits, `-`, `_`, one `/`); unique in the mesh. Renamed in place. */
  readonly name: string;
  /**
   * The policy's rules, in the mesh's rules language (HCL or JSON), e.g. `service "web" { policy = "write" }`.
   * The server checks them.
   * @default "" - no rules: grants nothing
   */
  readonly rules?: string;
  /**
   * A description of the policy.
   * @default ""
   */
  readonly description?: string;
  /**
   * The datacenters the policy applies in.
   * @default [] - every datacenter
   */
  readonly datacenters?: string[];
  /**
   * How to reach the mesh API (its token needs `acl = "write"`).
   * @default - the stack's MeshProvider, else the `MESH_HTTP_ADDR` and `MESH_HTTP_TOKEN` environment variables
   */
  readonly provider?: MeshProvider;
}

/**
 * A mesh ACL policy (`/v1/acl/policy`): named rules that tokens and roles hold. The server assigns
 * its ID (`policyId`, known once applied); a change of any field is made in place.
 *
 * @example
 * new mesh.AclPolicy(stack, 'web-write', { name: 'web-write', rules: 'service "web" { policy = "write" }' });
 */
export class AclPolicy extends Resource {
  /** The policy's name. */
  public readonly policyName: string;

  constructor(scope: Construct, id: string, props: AclPolicyProps) {
    super(scope, id, ACL_POLICY.kind, ACL_POLICY.api, props, props.provider);
    this.policyName = props.name;
  }

  /** The policy's ID (a UUID), known once applied. */
  public get policyId(): string {
    return this._attrString('id');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return ACL_POLICY;
  }
}
