import { countActions, StackPlan } from '../core/engine/plan-model';
import { naturalOrder } from './render-plan';

const ICON: Record<string, string> = { create: '➕', update: '✏️', replace: '♻️', delete: '🗑️', adopt: '📥', forget: '🫥', read: '🔎' };

/**
 * A Markdown summary of plans for a pull-request comment (`converge plan --summary FILE`). Never a
 * secret value. Every name in it comes from the app (or a synthesized output a pull request wrote):
 * it is escaped, so that a map key stays text in its cell, never a link, an image, HTML or a heading.
 */
export function renderSummary(plans: StackPlan[]): string {
  const lines: string[] = ['## converge plan', ''];
  for (const p of plans) {
    const n = countActions(p.items);
    lines.push(`### Stack ${code(p.stack)}`, '');
    lines.push(`**${n.create}** to add, **${n.update}** to change, **${n.replace}** to replace, **${n.delete}** to destroy` +
      (n.adopt ? `, **${n.adopt}** to adopt` : '') + (n.forget ? `, **${n.forget}** to forget` : '') + '.', '');
    const acting = naturalOrder(p.items).filter((i) => i.action !== 'noop' && i.action !== 'read');
    if (acting.length) {
      lines.push('| | Address | Kind | Action | Fields |', '|---|---|---|---|---|');
      for (const i of acting) {
        const fields = i.changes.map((f) => `${code(f.path)}${f.sensitive ? ' (sensitive)' : ''}`).join(', ');
        lines.push(`| ${ICON[i.action] ?? ''} | ${code(i.address)} | ${text(i.kind)} | ${text(i.action)}${i.reason ? ` (${text(i.reason)})` : ''} | ${fields} |`);
      }
      lines.push('');
    }
    const warnings = p.items.flatMap((i) => i.warnings.map((w) => `- ⚠️ ${code(i.address)}: ${text(w)}`));
    if (warnings.length) lines.push(...warnings, '');
    const drift = p.items.filter((i) => i.drift.length);
    if (drift.length) {
      lines.push('<details><summary>Drift found (changed outside converge)</summary>', '');
      for (const i of drift) lines.push(`- ${code(i.address)}: ${i.drift.map((d) => code(d.path)).join(', ')}`);
      lines.push('', '</details>', '');
    }
    if (p.notes.length) {
      // A fence longer than any run of backticks in the notes: none of them closes it.
      const fence = '`'.repeat(Math.max(3, ...p.notes.map((n) => longestRun(n, '`') + 1)));
      lines.push(fence, ...p.notes.map(oneLine), fence, '');
    }
  }
  return lines.join('\n');
}

/** Control characters (a newline would end the table row) written as escapes. */
function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function longestRun(s: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of s) { run = c === ch ? run + 1 : 0; best = Math.max(best, run); }
  return best;
}

/**
 * An inline code span holding `s` literally: on one line, fenced by more backticks than it holds in
 * a row, its `|` escaped (GitHub splits table cells at `|` even inside code).
 */
function code(s: string): string {
  const body = oneLine(s).replace(/\|/g, '\\|');
  const fence = '`'.repeat(longestRun(body, '`') + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** Text with every Markdown and HTML character escaped (links, images, emphasis, tags, mentions, cell borders). */
function text(s: string): string {
  return oneLine(s).replace(/[\\`*_[\]<>|!#@~&()]/g, '\\$&');
}
