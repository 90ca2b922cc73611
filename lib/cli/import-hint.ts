import { ApplyResult } from '../core/engine/applier';
import { StackPlan } from '../core/engine/plan-model';
import { Output } from './output';

/** `converge import` of an address, with `--stack` where the app has several stacks (else it would not know which). */
export function importCommandFor(stack: string, address: string, id: string, several: boolean): string {
  return `converge import ${several ? `--stack ${stack} ` : ''}${address} ${id}`;
}

/** The plan's import hints (the engine names address and id only), with `--stack S` in an app of several stacks. */
export function withStackInImportHints(plan: StackPlan, several: boolean): StackPlan {
  if (!several) return plan;
  const hint = (address: string, reason: string | undefined) =>
    reason?.split(`converge import ${address} `).join(`converge import --stack ${plan.stack} ${address} `);
  return { ...plan, items: plan.items.map((i) => (i.reason?.includes('converge import ') ? { ...i, reason: hint(i.address, i.reason) } : i)) };
}

/**
 * After a destroy: the objects it kept on the API (removal policy retain), which the next apply of the
 * same app finds as conflicts, and the imports that let it take them back.
 */
export function summariseRetained(plan: StackPlan, result: ApplyResult, several: boolean, out: Output): void {
  const forgotten = new Set(result.done.map((d) => d.address));
  const kept = plan.items.filter((i) => i.action === 'forget' && !i.dataSource && i.id && /removal policy retain/.test(i.reason ?? '') && forgotten.has(i.address));
  if (!kept.length) return;
  out.result(`Kept on the API (removal policy retain): ${kept.map((i) => `${i.address} (${i.kind})`).join(', ')}.`);
  out.result('converge no longer manages them; for the next apply of this app to take them back, first run:');
  for (const i of kept) out.result(`  ${importCommandFor(plan.stack, i.address, i.id!, several)}`);
}
