import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { convergeElementsOf, Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { AclPolicy } from './acl-policy';
import { MeshProvider } from '../provider';
import { AclNodeIdentity, AclServiceIdentity } from './acl-identities';
import { ACL_ROLE } from './acl-role.schema';

/** Props of a mesh ACL role. */
export interface AclRoleProps extends ResourceProps {
  /** The role's name (letters, digits, `-`, `_`); unique in the mesh. Renamed in place. */
  readonly name: string;
  /**
   * A description of the role.
   * @default ""
   */
  readonly description?: string;
  /**
   * The names of the policies the role holds (an `AclPolicy` of the same stack with one of these names is
   * created before the role and deleted after it; `policy.policyName` names one).
   * @default []
   */
  readonly policies?: string[];
  /**
   * Service identities.
   * @default []
   */
  readonly serviceIdentities?: AclServiceIdentity[];
  /**
   * Node identities.
   * @default []
   */
  readonly nodeIdentities?: AclNodeIdentity[];
  /**
   * How to reach the mesh API (its token needs `acl = "write"`).
   * @default - the stack's MeshProvider, else the `MESH_HTTP_ADDR` and `MESH_HTTP_TOKEN` environment variables
   */
  readonly provider?: MeshProvider;
}

/**
 * A mesh ACL role (`/v1/acl/role`): a named set of policies and identities that tokens hold. The
 * server assigns its ID (`roleId`, known once applied); every field changes in place.
 *
 * @example
 * const policy = new mesh.AclPolicy(stack, 'web-write', { name: 'web-write', rules: 'service "web" { policy = "write" }' });
 * new mesh.AclRole(stack, 'web-team', { name: 'web-team', policies: [policy.policyName], serviceIdentities: [{ serviceName: 'web' }] });
 */
export class AclRole extends Resource {
  /** The role's name. */
  public readonly roleName: string;
  /** @internal */
  private readonly _policyNames: string[];

  constructor(scope: Construct, id: string, props: AclRoleProps) {
    super(scope, id, ACL_ROLE.kind, ACL_ROLE.api, props, props.provider);
    this.roleName = props.name;
    this._policyNames = props.policies ?? [];
  }

  /** The role's ID (a UUID), known once applied. */
  public get roleId(): string {
    return this._attrString('id');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return ACL_ROLE;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    // The policies it names that this stack manages: written before the role, removed after it.
    const names = new Set(this._policyNames);
    for (const c of convergeElementsOf(TerraformStack.of(this))) {
      if (c instanceof AclPolicy && names.has(c.policyName) && !this.node.dependencies.includes(c)) this.node.addDependency(c);
    }
    return super._renderSpec();
  }
}
