import { hasChanges } from '../../core/engine/plan-model';
import { Output } from '../output';
import { readSavedPlan } from '../plan-file';
import { planJson, renderPlan } from '../render-plan';

export interface ShowOptions {
  /** As `plan --json` prints it. */
  readonly json?: boolean;
  /** One line per object. */
  readonly compact?: boolean;
}

/**
 * `converge show PLANFILE`: a saved plan as `plan` printed it (or as `plan --json`), read offline: it
 * contacts no API and takes no lock. The file is checked as `apply` checks it (its MAC under the state
 * key), so what it shows is what `apply PLANFILE` would do.
 */
export async function showCommand(file: string, opts: ShowOptions, out: Output): Promise<number> {
  const saved = readSavedPlan(file);
  if (opts.json) out.json(planJson(saved.plans));
  else saved.plans.forEach((p) => renderPlan(p, out, { compact: opts.compact }));
  if (!opts.json) out.info(`Saved on ${saved.created}; ${saved.plans.some(hasChanges) ? `apply exactly this plan with: converge apply ${file}` : 'nothing to apply'}.`);
  return 0;
}
