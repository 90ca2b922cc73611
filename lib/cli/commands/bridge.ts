import * as path from 'path';
import { convergeDir } from '../../core/crypto/state-key';
import { Output } from '../output';
import { localStateDir } from '../workspace';
import { applyCommand } from './apply';

/**
 * The commands the Terraform bridge's provisioners run (lib/core/constructs/terraform-bridge.ts),
 * in the app's directory: `bridge apply` from the create-time provisioner of the bridge's `apply`
 * resource (replaced whenever the desired state changes), `bridge destroy` from the destroy-time
 * provisioner of its `destroy` resource (never replaced, so it runs on a real destroy only).
 */
export interface BridgeOptions {
  readonly stack: string;
  readonly synthDir?: string;
  readonly parallelism?: string;
}

/**
 * Refuses local state (or a generated key file) inside the synth directory: `cdktf.out` is a build
 * output that a fresh CI job does not have, so the next deploy would not find what this one created.
 */
function refuseStateInSynthDir(opts: BridgeOptions): void {
  const synth = path.resolve(opts.synthDir ?? '.');
  const inside = (dir: string) => {
    const rel = path.relative(synth, dir);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  const state = localStateDir();
  const where = state !== undefined && inside(state) ? `converge's state would be kept in ${state}`
    : !process.env.CONVERGE_STATE_KEY && inside(convergeDir()) ? `converge's state key would be kept in ${path.join(convergeDir(), 'state.key')}`
      : undefined;
  if (where) {
    throw new Error(`${where}, inside the synth directory ${synth}, which a CI job does not keep (the next deploy would not find ` +
      'what this one created): set CONVERGE_STATE to a directory outside it or to postgres://… (and CONVERGE_STATE_KEY; ' +
      'CONVERGE_DIR, if set, outside it)');
  }
}

/** `converge bridge apply --stack S`: applies S (`converge apply --auto-approve`). */
export async function bridgeApply(opts: BridgeOptions, out: Output): Promise<number> {
  refuseStateInSynthDir(opts);
  out.info(`converge bridge: applying stack ${opts.stack}`);
  return applyCommand(undefined, { stack: opts.stack, synthDir: opts.synthDir, parallelism: opts.parallelism, autoApprove: true }, out);
}

/** `converge bridge destroy --stack S`: destroys S's objects (retained ones are only forgotten). */
export async function bridgeDestroy(opts: BridgeOptions, out: Output): Promise<number> {
  refuseStateInSynthDir(opts);
  out.info(`converge bridge: the stack ${opts.stack} is destroyed; destroying its objects`);
  return applyCommand(undefined, { stack: opts.stack, synthDir: opts.synthDir, parallelism: opts.parallelism, autoApprove: true, destroy: true }, out);
}
