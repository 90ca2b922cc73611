import { ApiClients } from '../core/engine/api-clients';
import { hasChanges, StackPlan } from '../core/engine/plan-model';
import { preflight } from '../core/engine/preflight';
import { StateStore } from '../core/state/state-store';
import { Output } from './output';

/**
 * Before anything is written (`plan`, `apply`, `destroy`; skipped with --no-preflight): asks each API
 * what its token may do on what the plan changes, and fails naming every capability it lacks. An API
 * that cannot answer is reported as not checked, and the run goes on.
 */
export async function preflightOrFail(plan: StackPlan, state: StateStore, clients: ApiClients, out: Output, enabled: boolean | undefined): Promise<void> {
  if (enabled === false || !hasChanges(plan)) return;
  const report = await preflight(plan, state, clients);
  for (const u of report.unchecked) out.warn(`Preflight of stack ${plan.stack}: could not check what the token may do on ${u}`);
  if (report.missing.length) {
    throw new Error(`stack ${plan.stack}: the tokens lack ${report.missing.length} capabilit${report.missing.length === 1 ? 'y' : 'ies'} this plan needs; nothing was written:\n  ` +
      `${report.missing.join('\n  ')}\n(\`converge policy\` prints what the stack needs; --no-preflight skips this check)`);
  }
}
