import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { convergeElementsOf, Resource, ResourceProps } from '../../core/constructs/resource';
import { reject } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { AclPolicy } from './acl-policy';
import { AclNodeIdentity, AclServiceIdentity } from './acl-identities';
import { AclRole } from './acl-role';
import { MeshProvider } from '../provider';
import { ACL_TOKEN } from './acl-token.schema';

/** Props of a mesh ACL token. */
export interface AclTokenProps extends ResourceProps {
  /**
   * A description of the token (also how converge finds it again after a crash between create and record).
   * @default ""
   */
  readonly description?: string;
  /**
   * The names of the policies the token holds (an `AclPolicy` of the same stack with one of these names is
   * created before the token and deleted after it).
   * @default []
   */
  readonly policies?: string[];
  /**
   * The names of the roles the token holds (an `AclRole` of the same stack with one of these names is
   * created before the token and deleted after it).
   * @default []
   */
  readonly roles?: string[];
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
   * Whether the token is valid only in the datacenter it is created in. A change replaces the token.
   * @default false
   */
  readonly local?: boolean;
  /**
   * How to reach the mesh API (its token needs `acl = "write"`).
   * @default - the stack's MeshProvider, else the `MESH_HTTP_ADDR` and `MESH_HTTP_TOKEN` environment variables
   */
  readonly provider?: MeshProvider;
}

/**
 * A mesh ACL token (`/v1/acl/token`), identified by its `AccessorID` (`accessorId`, known once
 * applied). The server generates its `SecretID`, which converge never keeps: it is in no state, plan,
 * output or log. Whoever needs the secret reads it from the mesh by the accessor, with `acl = "write"`
 * (`consul acl token read -id <accessor>`).
 *
 * @example
 * new mesh.AclToken(stack, 'ci-token', { description: 'CI of the web team', roles: ['web-team'] });
 */
export class AclToken extends Resource {
  /** @internal */
  private readonly _policyNames: string[];
  /** @internal */
  private readonly _roleNames: string[];

  constructor(scope: Construct, id: string, props: AclTokenProps = {}) {
    super(scope, id, ACL_TOKEN.kind, ACL_TOKEN.api, props, props.provider);
    this._policyNames = props.policies ?? [];
    this._roleNames = props.roles ?? [];
    // The mesh refuses it ("cannot specify a list of datacenters on a local token"): said at synth, not at apply.
    const listed = props.local ? (props.serviceIdentities ?? []).findIndex((s) => (s.datacenters ?? []).length > 0) : -1;
    if (listed >= 0) {
      reject(this, `serviceIdentities[${listed}].datacenters`, 'a local token\'s service identity cannot list datacenters (it is valid only in its own)');
    }
  }

  /** The token's AccessorID (a UUID, not a secret), known once applied. */
  public get accessorId(): string {
    return this._attrString('accessorId');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return ACL_TOKEN;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    // The policies and roles it names that this stack manages: written before the token, removed after it.
    const policies = new Set(this._policyNames);
    const roles = new Set(this._roleNames);
    for (const c of convergeElementsOf(TerraformStack.of(this))) {
      const named = (c instanceof AclPolicy && policies.has(c.policyName)) || (c instanceof AclRole && roles.has(c.roleName));
      if (named && !this.node.dependencies.includes(c)) this.node.addDependency(c);
    }
    return super._renderSpec();
  }
}
