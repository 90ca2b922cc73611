import { DesiredStack } from '../../model';

/**
 * Stacks in the order a run reconciles them: a stack after the stacks it reads values from (for a
 * destroy, before them). A cycle of references between stacks is refused.
 */
export function inDependencyOrder(stacks: DesiredStack[], destroy = false): DesiredStack[] {
  const byName = new Map(stacks.map((s) => [s.stack, s]));
  const out: DesiredStack[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (s: DesiredStack, path: string[]): void => {
    if (state.get(s.stack) === 'done') return;
    if (state.get(s.stack) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(s.stack)), s.stack];
      throw new Error(`references between stacks form a cycle (${cycle.join(' -> ')}): a stack is applied after the stacks it reads from`);
    }
    state.set(s.stack, 'visiting');
    for (const d of Object.keys(s.dependsOnStacks ?? {}).sort()) {
      const dep = byName.get(d);
      if (dep) visit(dep, [...path, s.stack]);
    }
    state.set(s.stack, 'done');
    out.push(s);
  };
  for (const s of stacks) visit(s, []);
  return destroy ? out.reverse() : out;
}
