import { DesiredStack } from '../../model';
import { StateBackend, StateDocument } from '../../state/state-model';
import { managedElsewhere, PlannedIdentity } from '../identities';

/**
 * One object, one address across stacks: refuses identities (a plan's, or an import's) that another
 * stack of the app manages (its state, in this backend) or plans to manage in the same run.
 */
export async function assertIdentitiesFree(stack: string, identities: Record<string, PlannedIdentity> | undefined, backend: StateBackend,
  all: readonly DesiredStack[], plannedInRun: readonly { stack: string; identities?: Record<string, PlannedIdentity> }[] = [],
  refused = `plan of stack ${stack} refused`): Promise<void> {
  if (!identities || !Object.keys(identities).length) return;
  const others: { stack: string; doc?: StateDocument; planned?: Record<string, PlannedIdentity> }[] = [];
  for (const s of all) {
    if (s.stack === stack) continue;
    const planned = plannedInRun.find((p) => p.stack === s.stack)?.identities;
    others.push({ stack: s.stack, doc: await backend.read(s.stack), ...(planned ? { planned } : {}) });
  }
  const problems = managedElsewhere(stack, identities, others);
  if (problems.length) throw new Error(`${refused}:\n  ${problems.join('\n  ')}`);
}
