import { Drawing, GraphEdge, GraphGroup, GraphNode } from './model';

/*
 * SVG without a browser: Mermaid's own renderer (mermaid-cli) needs a headless Chromium, and the
 * layout libraries that run in Node (dagre, elkjs) still leave the drawing to us; a drawing of a
 * few dozen boxes needs no more than this layered layout. Each group is laid out left to right in
 * layers by longest path from its first nodes; groups are stacked top to bottom.
 */
const CHAR = 7;
const NODE_H = 30;
const GAP_X = 70;
const GAP_Y = 24;
const PAD = 16;
const TITLE = 22;

/** Text for SVG: the five XML specials as entities (a name never becomes markup). */
export function xmlText(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

interface Placed { node: GraphNode; x: number; y: number; w: number }

function width(label: string): number {
  return Math.max(60, [...label].length * CHAR + 20);
}

/** Longest-path layers (cycles cut at the node count). */
function layers(g: GraphGroup): Map<string, number> {
  const layer = new Map(g.nodes.map((n) => [n.id, 0]));
  for (let round = 0; round < g.nodes.length; round++) {
    let moved = false;
    for (const e of g.edges) {
      const next = (layer.get(e.from) ?? 0) + 1;
      if (layer.has(e.to) && next > layer.get(e.to)! && next < g.nodes.length) { layer.set(e.to, next); moved = true; }
    }
    if (!moved) break;
  }
  return layer;
}

function layoutGroup(g: GraphGroup, top: number): { placed: Map<string, Placed>; height: number; width: number } {
  const layer = layers(g);
  const columns: GraphNode[][] = [];
  for (const n of g.nodes) (columns[layer.get(n.id)!] ??= []).push(n);
  const placed = new Map<string, Placed>();
  let x = PAD;
  let bottom = top + TITLE;
  for (const col of columns.filter(Boolean)) {
    const w = Math.max(...col.map((n) => width(n.label)));
    col.forEach((n, i) => {
      const y = top + TITLE + PAD + i * (NODE_H + GAP_Y);
      placed.set(n.id, { node: n, x: x + PAD, y, w: width(n.label) });
      bottom = Math.max(bottom, y + NODE_H);
    });
    x += w + GAP_X;
  }
  return { placed, height: bottom - top + PAD, width: x + PAD };
}

function shape(p: Placed): string {
  const { x, y, w } = p;
  const h = NODE_H;
  const fill = 'fill="#f4f6fb" stroke="#4a5a8a"';
  switch (p.node.shape) {
    case 'diamond': return `<polygon points="${x},${y + h / 2} ${x + 12},${y} ${x + w - 12},${y} ${x + w},${y + h / 2} ${x + w - 12},${y + h} ${x + 12},${y + h}" ${fill}/>`;
    case 'hexagon': return `<polygon points="${x},${y + h / 2} ${x + 8},${y} ${x + w - 8},${y} ${x + w},${y + h / 2} ${x + w - 8},${y + h} ${x + 8},${y + h}" ${fill} stroke-dasharray="4 2"/>`;
    case 'stadium': return `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${h / 2}" ${fill}/>`;
    case 'round': return `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="8" ${fill}/>`;
    default: return `<rect x="${x}" y="${y}" width="${w}" height="${h}" ${fill}/>`;
  }
}

function edge(e: GraphEdge, placed: Map<string, Placed>): string {
  const a = placed.get(e.from);
  const b = placed.get(e.to);
  if (!a || !b) return '';
  const [x1, y1, x2, y2] = [a.x + a.w, a.y + NODE_H / 2, b.x, b.y + NODE_H / 2];
  const line = `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#555" marker-end="url(#arrow)"${e.dashed ? ' stroke-dasharray="5 3"' : ''}/>`;
  const label = e.label === undefined ? '' : `<text x="${(x1 + x2) / 2}" y="${(y1 + y2) / 2 - 4}" font-size="11" text-anchor="middle">${xmlText(e.label)}</text>`;
  return line + label;
}

/** The drawing as a standalone SVG document. */
export function toSvg(d: Drawing): string {
  const parts: string[] = [];
  const all = new Map<string, Placed>();
  let top = PAD;
  let maxW = 200;
  for (const g of d.groups) {
    const { placed, height, width: w } = layoutGroup(g, top);
    maxW = Math.max(maxW, w);
    parts.push(`<g class="group"><rect x="${PAD / 2}" y="${top}" width="${w}" height="${height}" fill="none" stroke="#bbb" rx="6"/>` +
      `<text x="${PAD}" y="${top + 16}" font-size="13" font-weight="bold">${xmlText(g.label)}</text>`);
    for (const p of placed.values()) {
      parts.push(shape(p) + `<text x="${p.x + p.w / 2}" y="${p.y + 19}" font-size="12" text-anchor="middle">${xmlText(p.node.label)}</text>`);
      all.set(p.node.id, p);
    }
    for (const e of g.edges) parts.push(edge(e, placed));
    parts.push('</g>');
    top += height + PAD;
  }
  for (const e of d.edges) parts.push(edge(e, all));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${maxW + PAD}" height="${top}" font-family="sans-serif">\n` +
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>\n' +
    parts.join('\n') + '\n</svg>\n';
}
