import { defaultOf, SpecField, specText, specTableAfter } from '../support/spec-tables';

/**
 * The parameters of a secrets-spec operation cell: `address (string: …), token (string: empty; …)`,
 * split at the commas outside parentheses, each field's default the text after the type's colon
 * (`empty` is the empty string for a string, no default for other types).
 */
function parameterFields(cell: string): SpecField[] {
  const items: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of cell) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) { items.push(cur); cur = ''; } else cur += ch;
  }
  items.push(cur);
  return items.map((s) => s.trim()).filter(Boolean).map(parameterField);
}

/** One parameter: `name (type[, required][: default][; notes])`. */
function parameterField(text: string): SpecField {
  const m = /^`?([a-z_]+)`?\s*(?:\(([^;)]*)[^)]*\))?/.exec(text.trim());
  if (!m) throw new Error(`not a parameter: "${text}"`);
  const head = m[2] ?? '';
  const colon = head.indexOf(':');
  // Required, or no `type: default`: no default. A default in words (`the hosted platform's public address`) is no value either.
  if (/\brequired\b/.test(head) || colon < 0) return { name: m[1] };
  const [type, given] = [head.slice(0, colon).trim(), head.slice(colon + 1).trim()];
  if (given === 'empty') return { name: m[1], default: type === 'string' ? '' : undefined };
  return { name: m[1], default: /\s/.test(given) ? undefined : defaultOf(given) };
}

/** The parameters cell of an operation row of an engine's endpoint table. */
function operation(engine: string, op: string): SpecField[] {
  const row = specTableAfter('secrets-api', '| Operation |', engine).find((cells) => cells[0] === op);
  if (!row) throw new Error(`no "${op}" under "${engine}"`);
  return parameterFields(row[2]);
}

/** The mesh-token role parameters, listed by mesh version below its table: each `` `name` (type…) `` once, with its first default. */
function meshRoleParameters(): SpecField[] {
  const text = specText('secrets-api');
  const from = text.indexOf('Role parameters, by mesh-service version');
  const block = text.slice(from, text.indexOf('\n### ', from));
  const out = new Map<string, SpecField>();
  for (const m of block.matchAll(/`([a-z_]+)` \(([^)]*)\)/g)) {
    const f = parameterField(`${m[1]} (${m[2]})`);
    if (!out.has(f.name)) out.set(f.name, f);
  }
  return [...out.values()];
}

/** Each secrets kind of the tokens area's request fields, read from the spec's parameter tables. */
export const SECRETS_TOKENS_SPEC_FIELDS: Record<string, () => SpecField[]> = {
  'secrets.PlatformTokenConfig': () => operation('### Platform-token engine (`{platform_mount}`)', 'Configure access'),
  'secrets.PlatformTokenRole': () => operation('### Platform-token engine (`{platform_mount}`)', 'Create or update role'),
  'secrets.MeshTokenConfig': () => operation('### Mesh-token engine (`{mesh_mount}`)', 'Configure access'),
  'secrets.MeshTokenRole': meshRoleParameters,
};
