/**
 * ACL policies as the secrets service takes them: HCL (`path "secret/data/*" { capabilities = ["read"] }`)
 * or the same structure in JSON (`{"path":{"secret/data/*":{"capabilities":["read"]}}}`).
 * Only the `path` blocks and their `capabilities` are understood (the subset converge and its users need);
 * anything else in a block is refused, so that a policy never silently grants less or more than written.
 */

export const CAPABILITIES = ['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo', 'deny'] as const;
export type Capability = typeof CAPABILITIES[number];

/** One `path` block. */
export interface PathRule {
  readonly pattern: string;
  readonly capabilities: readonly Capability[];
}

/** Thrown for a policy the parser cannot read; the emulator answers 400 with its message. */
export class PolicyParseError extends Error {}

/** Parses a policy document (HCL subset or JSON) into its path rules. */
export function parsePolicy(text: string): PathRule[] {
  const trimmed = text.trim();
  const rules = trimmed.startsWith('{') ? fromJson(trimmed) : fromHcl(trimmed);
  for (const r of rules) {
    if (r.pattern.includes('*') && r.pattern.indexOf('*') !== r.pattern.length - 1) {
      throw new PolicyParseError(`failed to parse policy: path "${r.pattern}": a glob "*" may only appear at the end`);
    }
    for (const c of r.capabilities) {
      if (!(CAPABILITIES as readonly string[]).includes(c)) {
        throw new PolicyParseError(`failed to parse policy: path "${r.pattern}": invalid capability "${c}"`);
      }
    }
  }
  return rules;
}

function fromJson(text: string): PathRule[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new PolicyParseError(`failed to parse policy: ${(e as Error).message}`);
  }
  const paths = (doc as { path?: unknown }).path;
  if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) return [];
  return Object.entries(paths as Record<string, unknown>).map(([pattern, block]) => {
    const caps = (block as { capabilities?: unknown } | null)?.capabilities;
    if (!Array.isArray(caps) || caps.some((c) => typeof c !== 'string')) {
      throw new PolicyParseError(`failed to parse policy: path "${pattern}": capabilities must be a list of strings`);
    }
    return { pattern: stripLeadingSlash(pattern), capabilities: caps as Capability[] };
  });
}

/** Tokens of the HCL subset: strings, identifiers, and the punctuation `{ } [ ] = ,`. */
function tokenize(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '#' || (c === '/' && text[i + 1] === '/')) { while (i < text.length && text[i] !== '\n') i++; continue; }
    if (c === '/' && text[i + 1] === '*') { const end = text.indexOf('*/', i + 2); i = end < 0 ? text.length : end + 2; continue; }
    if ('{}[]=,'.includes(c)) { out.push(c); i++; continue; }
    if (c === '"') {
      let j = i + 1;
      let s = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) { s += text[j + 1]; j += 2; } else { s += text[j]; j++; }
      }
      if (j >= text.length) throw new PolicyParseError('failed to parse policy: unterminated string');
      out.push(`"${s}`);
      i = j + 1;
      continue;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i));
    if (!m) throw new PolicyParseError(`failed to parse policy: unexpected "${c}"`);
    out.push(m[0]);
    i += m[0].length;
  }
  return out;
}

function fromHcl(text: string): PathRule[] {
  const t = tokenize(text);
  let i = 0;
  const expect = (want: string): void => {
    if (t[i] !== want) throw new PolicyParseError(`failed to parse policy: expected "${want}", found ${t[i] === undefined ? 'the end' : `"${t[i].replace(/^"/, '')}"`}`);
    i++;
  };
  const str = (): string => {
    const v = t[i];
    if (v === undefined || !v.startsWith('"')) throw new PolicyParseError('failed to parse policy: expected a quoted string');
    i++;
    return v.slice(1);
  };
  const rules: PathRule[] = [];
  while (i < t.length) {
    expect('path');
    const pattern = str();
    expect('{');
    let capabilities: string[] | undefined;
    while (t[i] !== '}') {
      const key = t[i++];
      if (key !== 'capabilities') throw new PolicyParseError(`failed to parse policy: path "${pattern}": unsupported key "${key?.replace(/^"/, '')}"`);
      expect('=');
      expect('[');
      capabilities = [];
      while (t[i] !== ']') {
        capabilities.push(str());
        if (t[i] === ',') i++;
      }
      expect(']');
    }
    expect('}');
    rules.push({ pattern: stripLeadingSlash(pattern), capabilities: (capabilities ?? []) as Capability[] });
  }
  return rules;
}

function stripLeadingSlash(p: string): string {
  return p.replace(/^\/+/, '');
}
