import { StateRecord } from '../../core/state/state-model';
import { Output } from '../output';
import { tuning, withLockedState } from '../session';
import { applyCommand } from './apply';

/**
 * The commands the Terraform bridge's provisioners run (lib/core/constructs/terraform-bridge.ts).
 *
 * Each generation of the bridge's `null_resource` (its id) is recorded in a companion state,
 * `<stack>.bridge`, in the same backend as the stack's state. `bridge apply` records its
 * generation, then applies. `bridge destroy` destroys only when its generation is still the
 * recorded one: with `create_before_destroy`, a replacement creates (and records) the new
 * generation before the old one's destroy provisioner runs, which then finds a newer generation
 * and leaves the objects alone.
 */
export interface BridgeOptions {
  readonly stack: string;
  readonly generation: string;
  readonly synthDir?: string;
  readonly parallelism?: string;
}

const ADDRESS = 'generation';

export function bridgeStateName(stack: string): string {
  return `${stack}.bridge`;
}

function generationRecord(generation: string): StateRecord {
  return {
    kind: 'converge.BridgeGeneration', status: 'created', id: generation, spec: { generation }, hmacs: {}, outputs: {},
    dependsOn: [], removalPolicy: 'retain', provider: { api: 'platform', addressEnv: 'PLATFORM_ADDRESS', tokenEnv: 'PLATFORM_TOKEN' },
  };
}

/** Reads (and with `set`, replaces) the recorded generation of a stack's bridge. */
async function recordedGeneration(opts: BridgeOptions, out: Output, set?: string | null): Promise<string | undefined> {
  return withLockedState(bridgeStateName(opts.stack), 'bridge', tuning(opts), out, async (state) => {
    const before = state.record(ADDRESS)?.id;
    if (set !== undefined) await state.put(ADDRESS, set === null ? undefined : generationRecord(set));
    await state.flush();
    return before;
  });
}

/** `converge bridge apply --stack S --generation G`: records G as the newest generation, then applies S. */
export async function bridgeApply(opts: BridgeOptions, out: Output): Promise<number> {
  await recordedGeneration(opts, out, opts.generation);
  out.info(`converge bridge: generation ${opts.generation} of stack ${opts.stack}; applying`);
  return applyCommand(undefined, { stack: opts.stack, synthDir: opts.synthDir, parallelism: opts.parallelism, autoApprove: true }, out);
}

/** `converge bridge destroy --stack S --generation G`: destroys S only when no newer generation replaced G. */
export async function bridgeDestroy(opts: BridgeOptions, out: Output): Promise<number> {
  const recorded = await recordedGeneration(opts, out);
  if (recorded !== undefined && recorded !== opts.generation) {
    out.result(`converge bridge: generation ${opts.generation} of stack ${opts.stack} was replaced by generation ${recorded}; ` +
      'nothing to destroy (a replacement, not a destroy)');
    return 0;
  }
  out.info(`converge bridge: generation ${opts.generation} of stack ${opts.stack} is destroyed; destroying its objects`);
  const code = await applyCommand(undefined, { stack: opts.stack, synthDir: opts.synthDir, parallelism: opts.parallelism, autoApprove: true, destroy: true }, out);
  if (code === 0) await recordedGeneration(opts, out, null);
  return code;
}
