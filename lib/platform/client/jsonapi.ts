/** JSON:API documents of the platform and their conversion to plain objects. */

export interface ResourceIdentifier {
  readonly id: string;
  readonly type: string;
}

export interface Relationship {
  readonly data?: ResourceIdentifier | ResourceIdentifier[] | null;
  readonly links?: Record<string, string | null>;
}

export interface ResourceObject {
  readonly id: string;
  readonly type: string;
  readonly attributes?: Record<string, unknown>;
  readonly relationships?: Record<string, Relationship>;
  readonly links?: Record<string, string | null>;
}

export interface Document {
  readonly data: ResourceObject | ResourceObject[] | null;
  readonly included?: ResourceObject[];
  readonly links?: Record<string, string | null>;
  readonly meta?: Record<string, any>;
}

/** A resource as a plain object: `id`, `type`, camelCase attributes, and relationships (resolved from `included` when there). */
export interface PlainResource {
  readonly id: string;
  readonly type: string;
  readonly [key: string]: any;
}

export function camelCase(s: string): string {
  return s.replace(/[-_]([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function kebabCase(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Object keys camelCased, one level (values such as `permissions` keep their own keys camelCased too). */
export function camelKeys(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    out[camelCase(k)] = v !== null && typeof v === 'object' && !Array.isArray(v) ? camelKeys(v as Record<string, unknown>) : v;
  }
  return out;
}

/** Attributes to send: camelCase keys to kebab-case, undefined values dropped. */
export function kebabKeys(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[kebabCase(k)] = v;
  return out;
}

/**
 * A resource object as a plain object. A to-one relationship becomes the included resource
 * (plain) when present, else its identifier; a to-many one an array; a relationship with only
 * links is left out (`relationshipLinks` keeps them).
 */
export function toPlain(res: ResourceObject, included: readonly ResourceObject[] = []): PlainResource {
  const find = (ri: ResourceIdentifier): PlainResource | ResourceIdentifier => {
    const inc = included.find((i) => i.id === ri.id && i.type === ri.type);
    return inc ? toPlain(inc, []) : { id: ri.id, type: ri.type };
  };
  const out: Record<string, unknown> = { ...camelKeys(res.attributes ?? {}), id: res.id, type: res.type };
  const links: Record<string, unknown> = {};
  for (const [name, rel] of Object.entries(res.relationships ?? {})) {
    if (rel.links) links[camelCase(name)] = rel.links;
    if (rel.data === undefined) continue;
    out[camelCase(name)] = rel.data === null ? null : Array.isArray(rel.data) ? rel.data.map(find) : find(rel.data);
  }
  if (Object.keys(links).length) out.relationshipLinks = links;
  if (res.links?.self) out.selfLink = res.links.self;
  return out as PlainResource;
}

/** Every resource of a document as plain objects. */
export function documentToPlain(doc: Document): PlainResource[] {
  if (doc.data === null) return [];
  const list = Array.isArray(doc.data) ? doc.data : [doc.data];
  return list.map((r) => toPlain(r, doc.included ?? []));
}

/** A request document from camelCase attributes and relationships. */
export function toDocument(type: string, attributes: Record<string, unknown>,
  relationships?: Record<string, ResourceIdentifier | ResourceIdentifier[] | null>, id?: string): { data: Record<string, unknown> } {
  const data: Record<string, unknown> = { type, attributes: kebabKeys(attributes) };
  if (id !== undefined) data.id = id;
  if (relationships) {
    const rels: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(relationships)) rels[kebabCase(k)] = { data: v };
    data.relationships = rels;
  }
  return { data };
}
