import * as readline from 'readline';
import { legacyRecords, openSensitiveOutputs } from '../../core/state/record-seal';
import { StateStore } from '../../core/state/state-store';
import { Output } from '../output';
import { tuning, withLockedState } from '../session';
import { openBackend } from '../workspace';

async function onlyStack(stack?: string): Promise<string> {
  if (stack) return stack;
  const backend = await openBackend();
  try {
    const stacks = await backend.stacks();
    if (stacks.length !== 1) throw new Error(stacks.length ? `several stacks have state (${stacks.join(', ')}): choose one with --stack` : 'no state yet');
    return stacks[0];
  } finally {
    await backend.close?.();
  }
}

/** `converge state list`: every address with its kind and identity. */
export async function stateList(opts: { stack?: string }, out: Output): Promise<number> {
  const stack = await onlyStack(opts.stack);
  await withLockedState(stack, 'state list', tuning({}), out, async (state) => {
    for (const [addr, r] of Object.entries(state.records).sort()) {
      const note = r.status === 'creating' ? '\t(create interrupted)' : r.deletedOutside ? '\t(deleted outside converge)' : '';
      out.result(`${addr}\t${r.kind}\t${r.id ?? ''}${note}`);
    }
  });
  return 0;
}

/** `converge state show ADDRESS`: the record, sensitive outputs masked. */
export async function stateShow(address: string, opts: { stack?: string }, out: Output): Promise<number> {
  const stack = await onlyStack(opts.stack);
  return withLockedState(stack, 'state show', tuning({}), out, async (state) => {
    const r = state.record(address);
    if (!r) throw new Error(`no object at address "${address}" in the state of stack ${stack}`);
    out.json({ address, ...r, ...(r.sensitiveOutputs ? { sensitiveOutputs: '(sensitive, encrypted)' } : {}) });
    return 0;
  });
}

/** `converge state rm ADDRESS`: forget an object (it stays on the API). */
export async function stateRm(address: string, opts: { stack?: string }, out: Output): Promise<number> {
  const stack = await onlyStack(opts.stack);
  // A record refused as changed outside converge can still be forgotten.
  return withLockedState(stack, 'state rm', tuning({}), out, async (state) => {
    if (!state.record(address)) throw new Error(`no object at address "${address}" in the state of stack ${stack}`);
    await state.put(address, undefined);
    out.result(`Removed ${address} from the state of stack ${stack}; the object stays on the API.`);
    return 0;
  }, { tolerateTampered: true });
}

/**
 * `converge state migrate`: seals a state written by a release that did not seal records, once and
 * explicitly (converge refuses such a state otherwise: it cannot tell it from one whose seals were
 * removed by someone without the key). Lists every record it would seal, and seals them once
 * confirmed (`--auto-approve` in CI): a record in the list the app never had was planted.
 */
export async function stateMigrate(opts: { stack?: string; autoApprove?: boolean }, out: Output): Promise<number> {
  const stack = await onlyStack(opts.stack);
  return withLockedState(stack, 'state migrate', tuning({}), out, async (state, _clients, backend) => {
    if (state.serial === 0) throw new Error(`stack ${stack} has no state in this backend`);
    const addresses = legacyRecords(state.document, `the state of stack "${stack}" in ${backend.describe()}`);
    for (const a of addresses) {
      const r = state.record(a)!;
      out.result(`${a}\t${r.kind}\t${r.id ?? ''}${r.path ? `\t${r.path}` : ''}`);
    }
    const question = `\nSeal these ${addresses.length} records as the state of stack ${stack}? Only seal a state you know an earlier converge wrote; ` +
      'a record that is not yours was planted. Only \'yes\' will be accepted: ';
    if (!opts.autoApprove && !(await confirm(question))) {
      out.result('Nothing sealed.');
      return 1;
    }
    await state.migrate();
    out.result(`Sealed the state of stack ${stack} (${addresses.length} objects): from now on a record changed outside converge is refused.`);
    return 0;
  }, { migrate: true });
}

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) throw new Error('state migrate needs confirmation: run it in a terminal, or pass --auto-approve once you have checked the records it lists');
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  const answer = await new Promise<string>((r) => { rl.on('SIGINT', () => r('')); rl.question(question, r); });
  rl.close();
  return answer.trim() === 'yes';
}

/** `converge output`: every object's outputs; sensitive ones only with --show-sensitive. */
export async function outputCommand(opts: { stack?: string; showSensitive?: boolean; json?: boolean }, out: Output): Promise<number> {
  const stack = await onlyStack(opts.stack);
  return withLockedState(stack, 'output', tuning({}), out, async (state: StateStore) => {
    const doc: Record<string, Record<string, unknown>> = {};
    for (const [addr, r] of Object.entries(state.records).sort()) {
      const values: Record<string, unknown> = { id: r.id, ...r.outputs };
      if (r.sensitiveOutputs) {
        const secret = openSensitiveOutputs(r);
        for (const [k, v] of Object.entries(secret)) values[k] = opts.showSensitive ? v : '(sensitive)';
      }
      doc[addr] = values;
    }
    if (opts.json) out.json(doc);
    else for (const [addr, v] of Object.entries(doc)) for (const [k, x] of Object.entries(v)) out.result(`${addr}.${k} = ${JSON.stringify(x)}`);
    return 0;
  });
}

/** `converge force-unlock LOCK_ID`: removes a lock whose holder is known to be gone. */
export async function forceUnlock(lockId: string, opts: { stack?: string }, out: Output): Promise<number> {
  const stack = await onlyStack(opts.stack);
  const backend = await openBackend();
  try {
    await backend.forceUnlock(stack, lockId);
  } finally {
    await backend.close?.();
  }
  out.result(`Unlocked the state of stack ${stack}.`);
  return 0;
}
