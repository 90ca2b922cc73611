import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { convergeElementsOf, ResourceProps } from '../../core/constructs/resource';
import { PolicyPath, policyHcl, SECRETS_POLICY, secretsPolicyOf, stackSecretsPolicy } from '../policy';
import { SecretsProvider } from '../provider';
import { SecretsPolicy } from './secrets-policy';

/** Props of the policy a stack's own token needs. */
export interface LeastPrivilegePolicyProps extends ResourceProps {
  /**
   * The policy's name: lower case, not `root` or `default`. A change replaces the policy.
   */
  readonly name: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/** Written in place of the document until synth renders it from the stack. */
const RENDERED_AT_SYNTH = '# rendered from the stack at synth';

/**
 * The ACL policy a token needs to plan, apply and destroy this stack's secrets-service constructs:
 * exactly what `converge policy` prints for the stack, rendered at synth from the stack's own
 * constructs (this one's own path included), so that the stack manages its CI token's policy and
 * the policy follows the stack as constructs are added and removed.
 *
 * Applying a change of the policy narrows the token that applies it: a construct added together
 * with the grant it needs is applied with the grant written first only when it depends on this
 * construct (`node.addDependency(policy)`).
 *
 * @example
 * new secrets.LeastPrivilegePolicy(stack, 'ci', { name: 'ci-app' });
 */
export class LeastPrivilegePolicy extends SecretsPolicy {
  constructor(scope: Construct, id: string, props: LeastPrivilegePolicyProps) {
    super(scope, id, { ...props, policy: RENDERED_AT_SYNTH });
  }

  /** The policy's paths and capabilities, as `converge policy` computes them for the stack. */
  private stackPaths(): PolicyPath[] {
    const paths: PolicyPath[] = [];
    const desired: Record<string, { kind: string; spec: Record<string, unknown> }> = {};
    const own: string[] = [];
    for (const el of convergeElementsOf(TerraformStack.of(this))) {
      // Another policy of this kind renders from the stack too: its own path alone (no recursion).
      if (el instanceof LeastPrivilegePolicy) {
        own.push(el.name);
        continue;
      }
      desired[el.address] = el.toMetadata().converge.resources[el.address];
    }
    for (const name of own) paths.push(...SECRETS_POLICY['secrets.SecretsPolicy']({ name }));
    for (const r of Object.values(desired)) paths.push(...secretsPolicyOf(r.kind, r.spec, desired) ?? []);
    return stackSecretsPolicy(paths);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return { ...super._renderSpec(), policy: policyHcl(this.stackPaths()) };
  }
}
