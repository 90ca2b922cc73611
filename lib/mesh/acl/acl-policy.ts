import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { ConvergeElement, convergeElementsOf, Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { meshAclPolicy } from '../permissions';
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

/** Props of `AclPolicy.meshPolicy`: the stack's own least-privilege mesh policy. */
export interface MeshPolicyProps extends ResourceProps {
  /** The policy's name (letters, digits, `-`, `_`, one `/`); unique in the mesh. */
  readonly name: string;
  /**
   * A description of the policy.
   * @default "the mesh rules stack <stack> needs to plan, apply and destroy (converge policy)"
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
  /**
   * The stack's own least-privilege mesh policy: an `AclPolicy` whose rules are, rendered at synth
   * from the stack itself, the mesh rules `converge policy` prints for it (every mesh construct's, and
   * `acl = "write"` since the stack manages this policy). Give it to the stack's CI token, so that the
   * token can do what the stack needs and no more, and follows the stack as it changes.
   *
   * @example
   * const policy = mesh.AclPolicy.meshPolicy(stack, 'ci-policy', { name: 'prod-converge' });
   * new mesh.AclToken(stack, 'ci', { description: 'CI of prod', policies: [policy.policyName] });
   */
  public static meshPolicy(scope: Construct, id: string, props: MeshPolicyProps): AclPolicy {
    return new StackMeshPolicy(scope, id, props);
  }

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

/** `AclPolicy.meshPolicy`: the rules rendered from the stack's mesh constructs at synth. */
class StackMeshPolicy extends AclPolicy {
  constructor(scope: Construct, id: string, props: MeshPolicyProps) {
    super(scope, id, {
      ...props,
      description: props.description ?? `the mesh rules stack ${TerraformStack.of(scope).node.id} needs to plan, apply and destroy (converge policy)`,
    });
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const stack = TerraformStack.of(this);
    const resources: { kind: string; spec: Record<string, unknown> }[] = [{ kind: 'mesh.AclPolicy', spec: {} }];
    for (const c of convergeElementsOf(stack)) {
      // Another stack policy renders its rules from this one's: neither looks at the other.
      if (c instanceof StackMeshPolicy || !isMesh(c)) continue;
      for (const r of Object.values(c.toMetadata().converge.resources) as { kind: string; spec: Record<string, unknown> }[]) resources.push(r);
    }
    return { ...super._renderSpec(), rules: meshAclPolicy(resources) };
  }
}

function isMesh(c: ConvergeElement): boolean {
  return (c as unknown as { _api: string })._api === 'mesh';
}
