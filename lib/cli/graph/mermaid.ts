import { Drawing, GraphEdge, GraphNode } from './model';

/**
 * Text inside a quoted Mermaid label: every character but letters, digits, space and `._:/@=,-` as a
 * Mermaid entity code (`#34;`), so that a name with quotes, brackets, pipes, backticks or `<` cannot end
 * the label, start a link or HTML, or close the Markdown fence the summary puts the diagram in.
 */
export function mermaidText(s: string): string {
  return s.replace(/[^A-Za-z0-9 ._:/@=,-]/gu, (ch) => `#${ch.codePointAt(0)};`);
}

function nodeLine(n: GraphNode): string {
  const t = `"${mermaidText(n.label)}"`;
  switch (n.shape) {
    case 'round': return `${n.id}(${t})`;
    case 'diamond': return `${n.id}{${t}}`;
    case 'hexagon': return `${n.id}{{${t}}}`;
    case 'stadium': return `${n.id}([${t}])`;
    default: return `${n.id}[${t}]`;
  }
}

function edgeLine(e: GraphEdge): string {
  const arrow = e.dashed ? '-.->' : '-->';
  return `${e.from} ${arrow}${e.label !== undefined ? `|"${mermaidText(e.label)}"|` : ''} ${e.to}`;
}

/** A Mermaid flowchart (left to right) of the drawing: a subgraph per group. */
export function toMermaid(d: Drawing): string {
  const lines = ['flowchart LR'];
  for (const g of d.groups) {
    lines.push(`  subgraph ${g.id}["${mermaidText(g.label)}"]`);
    for (const n of g.nodes) lines.push(`    ${nodeLine(n)}`);
    for (const e of g.edges) lines.push(`    ${edgeLine(e)}`);
    lines.push('  end');
  }
  for (const e of d.edges) lines.push(`  ${edgeLine(e)}`);
  return lines.join('\n') + '\n';
}
