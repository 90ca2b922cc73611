import { countActions, StackPlan } from '../core/engine/plan-model';
import { naturalOrder } from './render-plan';

const ICON: Record<string, string> = { create: '➕', update: '✏️', replace: '♻️', delete: '🗑️', adopt: '📥', forget: '🫥', read: '🔎' };

/** A Markdown summary of plans for a pull-request comment (`converge plan --summary FILE`). Never a secret value. */
export function renderSummary(plans: StackPlan[]): string {
  const lines: string[] = ['## converge plan', ''];
  for (const p of plans) {
    const n = countActions(p.items);
    lines.push(`### Stack \`${p.stack}\``, '');
    lines.push(`**${n.create}** to add, **${n.update}** to change, **${n.replace}** to replace, **${n.delete}** to destroy` +
      (n.adopt ? `, **${n.adopt}** to adopt` : '') + (n.forget ? `, **${n.forget}** to forget` : '') + '.', '');
    const acting = naturalOrder(p.items).filter((i) => i.action !== 'noop' && i.action !== 'read');
    if (acting.length) {
      lines.push('| | Address | Kind | Action | Fields |', '|---|---|---|---|---|');
      for (const i of acting) {
        const fields = i.changes.map((f) => `\`${f.path}\`${f.sensitive ? ' (sensitive)' : ''}`).join(', ');
        lines.push(`| ${ICON[i.action] ?? ''} | \`${i.address}\` | ${i.kind} | ${i.action}${i.reason ? ` (${i.reason})` : ''} | ${fields} |`);
      }
      lines.push('');
    }
    const warnings = p.items.flatMap((i) => i.warnings.map((w) => `- ⚠️ \`${i.address}\`: ${w}`));
    if (warnings.length) lines.push(...warnings, '');
    const drift = p.items.filter((i) => i.drift.length);
    if (drift.length) {
      lines.push('<details><summary>Drift found (changed outside converge)</summary>', '');
      for (const i of drift) lines.push(`- \`${i.address}\`: ${i.drift.map((d) => `\`${d.path}\``).join(', ')}`);
      lines.push('', '</details>', '');
    }
    if (p.notes.length) lines.push('```', ...p.notes, '```', '');
  }
  return lines.join('\n');
}
