import * as fs from 'fs';
import { STATE_FORMAT, StateDocument } from '../../core/state/state-model';
import { Output } from '../output';
import { tuning, withLockedState } from '../session';

/** `converge state pull --stack S`: prints the stack's state document (secrets are only HMACs and ciphertext). */
export async function statePull(opts: { stack?: string }, out: Output): Promise<number> {
  if (!opts.stack) throw new Error('state pull needs --stack');
  return withLockedState(opts.stack, 'state pull', tuning({}), out, async (state) => {
    if (state.serial === 0) throw new Error(`stack ${opts.stack} has no state in this backend`);
    process.stdout.write(JSON.stringify(state.document, null, 1) + '\n');
    return 0;
  });
}

/**
 * `converge state push FILE --stack S`: writes a state document into the current backend (to move a
 * stack between backends). Refused when its lineage differs from the existing state's, or when it
 * is older (lower serial), unless --force. The same key (`CONVERGE_STATE_KEY`) must be used on both sides.
 */
export async function statePush(file: string, opts: { stack?: string; force?: boolean; renameFrom?: string }, out: Output): Promise<number> {
  const doc = JSON.parse(fs.readFileSync(file === '-' ? 0 : file, 'utf8')) as StateDocument;
  if (typeof doc.serial !== 'number' || typeof doc.lineage !== 'string' || typeof doc.resources !== 'object' || !doc.stack) {
    throw new Error(`${file} is not a converge state document`);
  }
  if (doc.version > STATE_FORMAT) throw new Error(`${file} was written by a newer converge`);
  const stack = opts.stack ?? doc.stack;
  if (!doc.authenticated) {
    throw new Error(`refusing to push: ${file} is not sealed (a converge release that did not seal state wrote it, or its seals were removed); ` +
      `seal it where it is with converge state migrate --stack ${doc.stack}, then pull it again`);
  }
  // Records are sealed to their stack: under another name, only a holder of the key seals them again, when asked to.
  if (opts.renameFrom === undefined && stack !== doc.stack) {
    throw new Error(`refusing to push: ${file} is the state of stack ${doc.stack}, whose records are sealed to that stack; ` +
      `to push it as stack ${stack}, seal it again to the new name with --rename-from ${doc.stack} (needs the state key it was written with)`);
  }
  if (opts.renameFrom !== undefined && opts.renameFrom !== doc.stack) {
    throw new Error(`refusing to push: --rename-from ${opts.renameFrom} names another stack than the one ${file} holds (${doc.stack})`);
  }
  return withLockedState(stack, 'state push', tuning({}), out, async (state) => {
    const exists = state.serial > 0;
    if (exists && !opts.force) {
      if (state.lineage !== doc.lineage) {
        throw new Error(`refusing to push: the state of stack ${stack} has another lineage (${state.lineage}, pushed ${doc.lineage}); use --force to overwrite`);
      }
      if (doc.serial < state.serial) {
        throw new Error(`refusing to push: the pushed state is older (serial ${doc.serial}) than the existing one (serial ${state.serial}); use --force to overwrite`);
      }
      if (doc.serial === state.serial && JSON.stringify(doc.resources) !== JSON.stringify(state.document.resources)) {
        throw new Error(`refusing to push: a different state with the same serial ${doc.serial} exists; use --force to overwrite`);
      }
    }
    const serial = exists ? Math.max(doc.serial, state.serial + 1) : doc.serial;
    await state.replace({ ...doc, stack, serial }, opts.force, opts.renameFrom !== undefined && opts.renameFrom !== stack ? opts.renameFrom : undefined);
    out.result(`Pushed the state of stack ${stack} (serial ${serial}, ${Object.keys(doc.resources).length} objects).`);
    return 0;
  });
}
