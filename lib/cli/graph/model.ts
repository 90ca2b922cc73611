/**
 * A drawing of `converge graph`, independent of its format: boxes in groups (a stack's objects, a
 * service's traffic before or after a plan) and labelled edges. Mermaid (mermaid.ts) and SVG (svg.ts)
 * draw it. Labels are plain text here; each format escapes them.
 */
export type NodeShape = 'box' | 'round' | 'diamond' | 'hexagon' | 'stadium';

export interface GraphNode { readonly id: string; readonly label: string; readonly shape: NodeShape }
export interface GraphEdge { readonly from: string; readonly to: string; readonly label?: string; readonly dashed?: boolean }
export interface GraphGroup { readonly id: string; readonly label: string; readonly nodes: GraphNode[]; readonly edges: GraphEdge[] }

export interface Drawing {
  readonly groups: GraphGroup[];
  /** Edges between nodes of different groups (a stack reading another's values). */
  readonly edges: GraphEdge[];
}

/** Ids are made here, never from names: a name only ever reaches a drawing as an escaped label. */
export class IdMaker {
  private n = 0;
  private readonly byKey = new Map<string, string>();
  constructor(private readonly prefix: string) {}
  public id(key: string): string {
    let id = this.byKey.get(key);
    if (!id) { id = `${this.prefix}${++this.n}`; this.byKey.set(key, id); }
    return id;
  }
}
