import * as path from 'path';
import { convergeDir } from '../../core/crypto/state-key';
import { Output } from '../output';
import { OtherStacks } from '../../core/engine/other-stacks';
import { conflictsOf } from '../../core/engine/plan-model';
import { planReconciled } from '../../core/engine/reconcile';
import { tuning, withLockedState } from '../session';
import { loadStacks, localStateDir, selectStacks } from '../workspace';
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

/**
 * `converge bridge apply --stack S`: applies S (`converge apply --auto-approve`), printing progress and
 * result but not the plan: Terraform's plan showed it (the bridge's per-object triggers), and when the
 * provisioner fails, Terraform's error repeats the command's whole output, so a printed plan came twice.
 */
export async function bridgeApply(opts: BridgeOptions, out: Output): Promise<number> {
  refuseStateInSynthDir(opts);
  out.info(`converge bridge: applying stack ${opts.stack} (its changes per object are in Terraform's plan, the bridge's object:<address> triggers)`);
  return applyCommand(undefined, { stack: opts.stack, synthDir: opts.synthDir, parallelism: opts.parallelism, autoApprove: true, planShownElsewhere: true }, out);
}

/**
 * `converge bridge destroy --stack S`: destroys S's objects (retained ones are only forgotten). A stack
 * with no state at all is either one never applied (nothing to do) or one whose state is kept where
 * this run does not look (the provisioner lacks the apply's `CONVERGE_STATE`): refused, never a silent
 * "0 objects" that lets Terraform say "Destroy complete!" over everything left behind.
 */
export async function bridgeDestroy(opts: BridgeOptions, out: Output): Promise<number> {
  refuseStateInSynthDir(opts);
  if (!(await hasState(opts, out))) return 0;
  out.info(`converge bridge: the stack ${opts.stack} is destroyed; destroying its objects`);
  return applyCommand(undefined, { stack: opts.stack, synthDir: opts.synthDir, parallelism: opts.parallelism, autoApprove: true, destroy: true }, out);
}

/**
 * Whether the stack has a state here. Without one, the app is planned against none: any of its
 * objects found on the API under its identity means it was applied with its state elsewhere (an
 * error); none found means it was never applied (false: nothing to destroy).
 */
async function hasState(opts: BridgeOptions, out: Output): Promise<boolean> {
  const all = loadStacks({ synthDir: opts.synthDir });
  const [desired] = selectStacks(all, opts.stack);
  const t = tuning(opts);
  return withLockedState(desired.stack, 'destroy', t, out, async (state, clients, backend) => {
    if (await backend.read(desired.stack)) return true;
    const where = `stack ${desired.stack} has no state in ${backend.describe()}`;
    let found: string[];
    try {
      const plan = await planReconciled(desired, state, { backend, clients, all, other: new OtherStacks(), parallelism: t.parallelism, warn: (m) => out.warn(m) });
      found = conflictsOf(plan).map((c) => c.address);
    } catch (e) {
      throw new Error(`${where}, and whether its objects exist could not be checked: ${(e as Error).message}; nothing was destroyed`);
    }
    if (found.length) {
      throw new Error(`${where}, but its objects exist (${found.join(', ')}): its state is kept elsewhere; nothing was destroyed. ` +
        'Give the bridge\'s provisioners the CONVERGE_STATE (and CONVERGE_STATE_KEY) its apply used (TerraformBridge\'s environment reaches both), ' +
        `or run converge destroy --stack ${desired.stack} where that state is`);
    }
    out.result(`converge bridge: ${where} and none of its objects exists: it was never applied; nothing to destroy`);
    return false;
  });
}
