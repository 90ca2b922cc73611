import { DesiredStack } from '../../model';
import { StateBackend } from '../../state/state-model';
import { crossStackRefs, OtherStacks, stacksReadBy } from '../other-stacks';

/**
 * Before a stack is planned or applied: reads the states of the stacks it reads values from (a
 * snapshot each, no lock taken). Before a destroy: warns when other stacks in the backend still read
 * values of this one (Terraform does not track the readers of a remote state either; converge names
 * them, and destroys anyway). `except`: stacks whose own destroy this run plans (their readers go).
 */
export async function prepareOtherStacks(other: OtherStacks, backend: StateBackend, desired: DesiredStack, destroy: boolean | undefined,
  warn: (message: string) => void, except: ReadonlySet<string> = new Set()): Promise<void> {
  if (!destroy) {
    await other.load(backend, stacksReadBy(desired));
    return;
  }
  const readers = await readersOf(backend, desired.stack, except);
  if (!readers.length) return;
  warn(`Warning: other stacks in ${backend.describe()} read values of stack ${desired.stack}: ` +
    readers.map((r) => `${r.stack} (${r.refs.join(', ')})`).join('; ') + '. ' +
    'Their objects keep the values they last read, and their next plan fails until stack ' +
    `${desired.stack} is applied again: destroy them first (converge destroy --stack ${readers.map((r) => r.stack).join(' --stack ')}) or remove the references.`);
}

/** The stacks in the backend whose state records read values of `stack` (cross-stack references), with what they read. */
async function readersOf(backend: StateBackend, stack: string, except: ReadonlySet<string>): Promise<{ stack: string; refs: string[] }[]> {
  const out: { stack: string; refs: string[] }[] = [];
  for (const s of await backend.stacks()) {
    if (s === stack || except.has(s)) continue;
    const doc = await backend.read(s);
    const refs = new Set<string>();
    for (const [address, rec] of Object.entries(doc?.resources ?? {})) {
      for (const ref of rec.stackRefs ?? []) if (ref.startsWith(`${stack}/`)) refs.add(`${address} reads ${ref}`);
    }
    if (refs.size) out.push({ stack: s, refs: [...refs].sort() });
  }
  return out;
}

/** The addresses of `stack` that the other stacks of the app read values from. */
export function readByOtherStacks(all: readonly DesiredStack[], stack: string): Set<string> {
  const out = new Set<string>();
  for (const s of all) {
    if (s.stack === stack) continue;
    for (const r of Object.values(s.resources)) {
      for (const ref of crossStackRefs(r.spec)) if (ref.startsWith(`${stack}/`)) out.add(ref.slice(stack.length + 1, ref.lastIndexOf('.')));
    }
  }
  return out;
}
