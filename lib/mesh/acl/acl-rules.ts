/**
 * The part of the mesh's ACL rules language (Consul's HCL rules, or their JSON form) that decides what
 * converge's kinds need: `service` and `service_prefix` blocks with a `policy`, and the `mesh` and
 * `operator` rules. Other rules are read past and ignored.
 */
export interface ParsedRules {
  /** Exact service rules: name -> read, write or deny. */
  readonly service: Map<string, string>;
  /** Service prefix rules: prefix -> read, write or deny. */
  readonly servicePrefix: Map<string, string>;
  /** The `intentions` of exact service rules: name -> read, write or deny. */
  readonly serviceIntentions?: Map<string, string>;
  /** The `intentions` of service prefix rules: prefix -> read, write or deny. */
  readonly servicePrefixIntentions?: Map<string, string>;
  mesh?: string;
  operator?: string;
  /** The `acl` rule: read, write or deny. */
  acl?: string;
}

export function emptyRules(): ParsedRules {
  return { service: new Map(), servicePrefix: new Map(), serviceIntentions: new Map(), servicePrefixIntentions: new Map() };
}

/** Deny wins over write, write over read: how the mesh merges the same rule of several policies. */
function stronger(a: string | undefined, b: string): string {
  const rank = (x: string | undefined) => (x === 'deny' ? 3 : x === 'write' ? 2 : x === 'read' ? 1 : 0);
  return rank(b) > rank(a) ? b : a!;
}

/** Parses a policy's `Rules` into `into` (merged with what it holds). Throws on text it cannot read. */
export function parseRules(text: string, into: ParsedRules = emptyRules()): ParsedRules {
  const trimmed = text.trim();
  const doc = trimmed.startsWith('{') ? JSON.parse(trimmed) as Record<string, unknown> : hclToObject(trimmed);
  const blocks = (key: string, target: Map<string, string>, intentions: Map<string, string> | undefined) => {
    for (const [name, body] of Object.entries((doc[key] ?? {}) as Record<string, unknown>)) {
      const rule = (Array.isArray(body) ? body[0] : body) as { policy?: unknown; intentions?: unknown } | undefined;
      if (typeof rule?.policy === 'string') target.set(name, stronger(target.get(name), rule.policy));
      if (typeof rule?.intentions === 'string' && intentions) intentions.set(name, stronger(intentions.get(name), rule.intentions));
    }
  };
  blocks('service', into.service, into.serviceIntentions);
  blocks('service_prefix', into.servicePrefix, into.servicePrefixIntentions);
  if (typeof doc.mesh === 'string') into.mesh = stronger(into.mesh, doc.mesh);
  if (typeof doc.operator === 'string') into.operator = stronger(into.operator, doc.operator);
  if (typeof doc.acl === 'string') into.acl = stronger(into.acl, doc.acl);
  return into;
}

/** What the rules grant on a service: the exact rule, else the longest matching prefix, else nothing (deny by default). */
export function servicePolicy(rules: ParsedRules, service: string): string | undefined {
  const exact = rules.service.get(service);
  if (exact !== undefined) return exact;
  let best: string | undefined;
  for (const prefix of rules.servicePrefix.keys()) if (service.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  return best === undefined ? undefined : rules.servicePrefix.get(best);
}

/** Whether `held` satisfies `needed` (write satisfies read; deny nothing). */
export function grants(held: string | undefined, needed: 'read' | 'write'): boolean {
  return held === 'write' || (held === 'read' && needed === 'read');
}

/** Mesh-wide writes: the `mesh` rule, or `operator` where `mesh` is not set (as the mesh falls back). */
export function meshPolicy(rules: ParsedRules): string | undefined {
  return rules.mesh ?? rules.operator;
}

/** HCL (the subset policies use: `key = value`, `key "label" { … }`, lists, comments) as a JSON-like object. */
function hclToObject(text: string): Record<string, unknown> {
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const value = (): unknown => {
    const t = next();
    if (t === '[') {
      const list: unknown[] = [];
      while (peek() !== ']') { list.push(value()); if (peek() === ',') next(); }
      next();
      return list;
    }
    if (t === '{') return body('}');
    if (t === undefined) throw new Error('rules end early');
    return t.startsWith('"') ? JSON.parse(t) : t;
  };
  const body = (end?: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    while (i < tokens.length && peek() !== end) {
      const key = next().replace(/^"|"$/g, '');
      if (peek() === '=') { next(); out[key] = value(); continue; }
      const labels: string[] = [];
      while (peek()?.startsWith('"')) labels.push(JSON.parse(next()));
      if (next() !== '{') throw new Error(`rules: "{" expected after ${key}`);
      const inner = body('}');
      next();
      if (!labels.length) { out[key] = inner; continue; }
      const holder = (out[key] ?? {}) as Record<string, unknown>;
      holder[labels[0]] = inner;
      out[key] = holder;
    }
    return out;
  };
  return body();
}

function tokenize(text: string): string[] {
  const out: string[] = [];
  const re = /\s+|#[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\/|("(?:[^"\\]|\\.)*")|([{}[\]=,])|([^\s{}[\]=,"#]+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const t = m[1] ?? m[2] ?? m[3];
    if (t !== undefined) out.push(t);
  }
  return out;
}
