import { ConstructRef, EnumMember, ExistingLookup, MapLiteral, SecretFromEnv } from '../../core/migrate/terraform-mapping';
import { Migration } from './plan-migration';

export type Language = 'typescript' | 'python';

/** How one language writes values; the layout (indentation, one prop a line) is shared. */
interface Syntax {
  str(s: string): string;
  bool(b: boolean): string;
  nil: string;
  self: string;
  secret(name: string): string;
  prop(name: string): string;
  /** Key of a nested struct (camelCase in TypeScript, snake_case in Python). */
  structKey(name: string): string;
  /** Key of a map (data: kept as it is). */
  mapKey(key: string): string;
  objOpen: string;
  objClose: string;
  kv: string;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const TS: Syntax = {
  str: (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\u2028|\u2029/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)}'`,
  bool: (b) => String(b),
  nil: 'undefined',
  self: 'this',
  secret: (n) => `SecretValue.fromEnv('${n}')`,
  prop: (n) => n,
  structKey: (n) => n,
  mapKey: (k) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : TS.str(k)),
  objOpen: '{',
  objClose: '}',
  kv: ': ',
};

const PY: Syntax = {
  str: (s) => JSON.stringify(s),
  bool: (b) => (b ? 'True' : 'False'),
  nil: 'None',
  self: 'self',
  secret: (n) => `SecretValue.from_env("${n}")`,
  prop: snake,
  structKey: (n) => JSON.stringify(snake(n)),
  mapKey: (k) => JSON.stringify(k),
  objOpen: '{',
  objClose: '}',
  kv: ': ',
};

/** Writes one value at an indentation depth. */
function valueOf(v: unknown, sx: Syntax, depth: number, vars: Map<string, string>, lang: Language): string {
  const pad = (lang === 'python' ? '    ' : '  ').repeat(depth);
  const inner = (lang === 'python' ? '    ' : '  ').repeat(depth + 1);
  if (v instanceof SecretFromEnv) return sx.secret(v.name);
  if (v instanceof EnumMember) return `${v.enumName}.${v.member}`;
  if (v instanceof ConstructRef) {
    const name = vars.get(v.address)!;
    return v.attr ? `${name}.${lang === 'python' ? snake(v.attr) : v.attr}` : name;
  }
  if (v instanceof ExistingLookup) return vars.get(`lookup:${v.constructId}`)!;
  if (v === null || v === undefined) return sx.nil;
  if (typeof v === 'string') return sx.str(v);
  if (typeof v === 'boolean') return sx.bool(v);
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) {
    if (!v.length) return '[]';
    return `[\n${v.map((x) => `${inner}${valueOf(x, sx, depth + 1, vars, lang)},`).join('\n')}\n${pad}]`;
  }
  const isMap = v instanceof MapLiteral;
  const entries = Object.entries(isMap ? (v as MapLiteral).entries : v as Record<string, unknown>);
  if (!entries.length) return '{}';
  const key = (k: string) => (isMap ? sx.mapKey(k) : sx.structKey(k));
  return `${sx.objOpen}\n${entries.map(([k, x]) => `${inner}${key(k)}${sx.kv}${valueOf(x, sx, depth + 1, vars, lang)},`).join('\n')}\n${pad}${sx.objClose}`;
}

/** The namespaces (`mesh`, `platform`, `secrets`) the code uses. */
function namespacesOf(text: string): string[] {
  return ['mesh', 'platform', 'secrets'].filter((n) => new RegExp(`\\b${n}\\.[A-Z]`).test(text));
}

/** The stack's code: one construct per resource taken, in the order they depend on one another. */
export function generateCode(m: Migration, lang: Language, source: string, className = 'ImportedStack'): string {
  const sx = lang === 'python' ? PY : TS;
  const vars = new Map<string, string>();
  for (const c of m.constructs) vars.set(c.tfAddress, c.varName);
  const body: string[] = [];
  const indent = lang === 'python' ? '        ' : '    ';
  for (const l of m.lookups) {
    const v = l.constructId.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''));
    const name = lang === 'python' ? snake(v) : v;
    vars.set(`lookup:${l.constructId}`, name);
    const method = lang === 'python' ? snake(l.method) : l.method;
    const decl = lang === 'python' ? '' : 'const ';
    body.push(`${indent}${decl}${name} = ${l.className}.${method}(${sx.self}, ${sx.str(l.constructId)}, ${l.args.map((a) => valueOf(a, sx, 2, vars, lang)).join(', ')})${lang === 'python' ? '' : ';'}`);
  }
  if (lang === 'python') for (const c of m.constructs) vars.set(c.tfAddress, snake(c.varName));
  for (const c of m.constructs) {
    const referenced = m.referenced.has(c.tfAddress);
    const props = Object.entries(c.props).filter(([, v]) => v !== undefined);
    body.push(`${indent}// ${c.tfAddress}`.replace('// ', lang === 'python' ? '# ' : '// '));
    if (lang === 'python') {
      const args = [`${sx.self}`, sx.str(c.constructId), ...props.map(([k, v]) => `${sx.prop(k)}=${valueOf(v, sx, 3, vars, lang)}`)];
      const lhs = referenced ? `${vars.get(c.tfAddress)} = ` : '';
      body.push(`${indent}${lhs}${c.className}(\n${args.map((a) => `${indent}    ${a},`).join('\n')}\n${indent})`);
    } else {
      const lhs = referenced ? `const ${c.varName} = ` : '';
      const obj = props.length ? valueOf(Object.fromEntries(props), sx, 2, vars, lang) : '{}';
      body.push(`${indent}${lhs}new ${c.className}(this, ${sx.str(c.constructId)}, ${obj});`);
    }
  }
  const text = body.join('\n');
  const ns = namespacesOf(text);
  const usesSecret = m.constructs.some((c) => c.secrets.length);
  const header = `Generated by converge from ${source}. Secrets are read from the environment (${lang === 'python' ? 'SecretValue.from_env' : 'SecretValue.fromEnv'}), never written here.`;
  if (lang === 'python') {
    const imports = [...(usesSecret ? ['SecretValue'] : []), ...ns].join(', ');
    return [`"""${header}"""`, 'from constructs import Construct', 'from cdktf import TerraformStack',
      imports ? `from cdk_converge import ${imports}` : '', '', '',
      `class ${className}(TerraformStack):`, '    def __init__(self, scope: Construct, id: str) -> None:', '        super().__init__(scope, id)',
      text, ''].filter((l, i) => l !== '' || i > 3).join('\n');
  }
  const imports = [...ns, ...(usesSecret ? ['SecretValue'] : [])].join(', ');
  return [`// ${header}`, "import { TerraformStack } from 'cdktf';", "import { Construct } from 'constructs';",
    imports ? `import { ${imports} } from 'cdk-converge';` : '', '',
    `export class ${className} extends TerraformStack {`, '  constructor(scope: Construct, id: string) {', '    super(scope, id);',
    text, '  }', '}', ''].join('\n');
}
