import './cdk-adapter';
import { TerraformStack } from 'cdktf';

/**
 * Testing helpers. cdktf's `Testing.synth` drops the `"//"` block where converge keeps its
 * desired state; these return it.
 */
export class ConvergeTesting {
  /**
   * The desired state converge reads for a stack: `{ version, resources: { <address>: { kind, spec, … } } }`.
   */
  public static desiredState(stack: TerraformStack): any {
    const tf = stack.toTerraform() as any;
    const block = tf['//']?.metadata?.converge;
    return block ?? { version: 1, resources: {} };
  }
}
