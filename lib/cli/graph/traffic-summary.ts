import { ServiceTraffic } from '../../mesh/traffic/traffic-picture';
import { toMermaid } from './mermaid';
import { trafficDrawing } from './traffic';

/**
 * The traffic section of `plan --summary`: the services whose chain the plan changes, before and
 * after, as a Mermaid block (GitHub renders it). Every name is an escaped label (mermaid.ts), so none
 * can close the block or the comment's Markdown. Empty when the plan changes no chain.
 */
export function trafficSummarySection(services: readonly ServiceTraffic[]): string {
  const changed = services.filter((s) => JSON.stringify(s.before) !== JSON.stringify(s.after));
  if (!changed.length) return '';
  return ['### Traffic', '', 'The discovery chains this plan changes, before and after (`converge graph` draws them all).', '',
    '```mermaid', toMermaid(trafficDrawing(changed, true)).trimEnd(), '```', ''].join('\n');
}
