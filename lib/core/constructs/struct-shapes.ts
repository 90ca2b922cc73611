import * as fs from 'fs';
import * as path from 'path';

// The shape of every construct's props, at every depth, read from the jsii assembly (`.jsii`, built by
// jsii from the same sources and shipped in the package): each struct's declared fields and their types.
// Plain objects inside lists and maps are not checked by TypeScript once cast, nor by the other jsii
// languages (a Python dict is passed as it is), so a misspelt key would otherwise be silently dropped.

type TypeRef = {
  primitive?: string;
  fqn?: string;
  collection?: { kind: 'array' | 'map'; elementtype: TypeRef };
};
interface AssemblyType {
  kind: string;
  datatype?: boolean;
  interfaces?: string[];
  properties?: { name: string; type: TypeRef }[];
  initializer?: { parameters?: { name: string; type: TypeRef }[] };
}
interface Struct {
  readonly fqn: string;
  /** Field name -> its type; undefined when a base struct is outside the assembly (then any key is accepted). */
  readonly fields?: Map<string, TypeRef>;
}

const ASSEMBLY_FILE = path.resolve(__dirname, '../../../.jsii');
let types: Record<string, AssemblyType> | null | undefined;
let assemblyName = '';

/** The assembly's types, read once; null when the assembly is not there (sources run before a build). */
function assemblyTypes(): Record<string, AssemblyType> | null {
  if (types !== undefined) return types;
  if (!fs.existsSync(ASSEMBLY_FILE)) return (types = null);
  const a = JSON.parse(fs.readFileSync(ASSEMBLY_FILE, 'utf8')) as { name: string; types: Record<string, AssemblyType> };
  assemblyName = a.name;
  return (types = a.types);
}

const structs = new Map<string, Struct | undefined>();

/** The struct type `fqn` names, with the fields of its bases; undefined when `fqn` is not a struct. */
function structOf(fqn: string): Struct | undefined {
  if (structs.has(fqn)) return structs.get(fqn);
  const all = assemblyTypes();
  const t = all?.[fqn];
  let s: Struct | undefined;
  if (t?.kind === 'interface' && t.datatype) {
    const fields = new Map<string, TypeRef>();
    let open = false;
    const collect = (name: string) => {
      const x = all![name];
      if (!x) { open = true; return; }
      for (const p of x.properties ?? []) fields.set(p.name, p.type);
      for (const b of x.interfaces ?? []) collect(b);
    };
    collect(fqn);
    s = { fqn, fields: open ? undefined : fields };
  }
  structs.set(fqn, s);
  return s;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** `path_prefix` -> `pathPrefix` (Python's spelling of a field -> jsii's). */
export function snakeToCamel(key: string): string {
  return key.replace(/_+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length];
}

/** `did you mean pathPrefix?` for the nearest field, or the list of fields when none is near. */
function hint(key: string, fields: Iterable<string>): string {
  const names = [...fields];
  const camel = snakeToCamel(key).toLowerCase();
  const best = names
    .map((n) => ({ n, d: Math.min(editDistance(key.toLowerCase(), n.toLowerCase()), editDistance(camel, n.toLowerCase())) }))
    .sort((x, y) => x.d - y.d)[0];
  if (best && best.d <= Math.max(2, Math.floor(best.n.length / 3))) return `did you mean ${best.n}?`;
  return `its fields are ${names.join(', ')}`;
}

/** A key that is not a field of its struct; `field` is its path in the props (`routes[0].match.http.pathPrefx`). */
export class UnknownFieldError extends Error {
  constructor(readonly field: string, readonly rule: string) {
    super(`${field} ${rule}`);
  }
}

/**
 * Walks `value` against `type`: in every struct, a key spelt as another jsii language spells a known field
 * (`path_prefix`) is renamed in place to the field's name (`pathPrefix`); any other unknown key throws.
 */
function walk(value: unknown, type: TypeRef, where: string): void {
  if (value === undefined || value === null) return;
  if (type.collection) {
    if (type.collection.kind === 'array' && Array.isArray(value)) {
      value.forEach((v, i) => walk(v, type.collection!.elementtype, `${where}[${i}]`));
    } else if (type.collection.kind === 'map' && isPlainObject(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, type.collection.elementtype, `${where}.${k}`);
    }
    return;
  }
  const s = type.fqn ? structOf(type.fqn) : undefined;
  if (!s || !s.fields || !isPlainObject(value)) return;
  const at = (k: string) => (where ? `${where}.${k}` : k);
  for (const key of Object.keys(value)) {
    let field = key;
    if (!s.fields.has(key)) {
      const camel = snakeToCamel(key);
      const shortName = s.fqn.slice(assemblyName.length + 1);
      if (camel === key || !s.fields.has(camel)) throw new UnknownFieldError(at(key), `is not a field of ${shortName} (${hint(key, s.fields.keys())})`);
      if (camel in value && value[camel] !== value[key]) {
        throw new UnknownFieldError(at(key), `and ${camel} are the same field of ${shortName}, given twice`);
      }
      value[camel] = value[key];
      delete value[key];
      field = camel;
    }
    walk(value[field], s.fields.get(field)!, at(field));
  }
}

/**
 * Checks and normalizes the props of the construct class `fqn` (e.g. `cdk-converge.mesh.ServiceRouter`)
 * at every depth. Throws an UnknownFieldError for a key that is no field; does nothing when the
 * assembly is not there or does not know the class.
 */
export function normalizeStructProps(fqn: string, props: unknown): void {
  const t = assemblyTypes()?.[fqn];
  const param = t?.initializer?.parameters?.find((p) => p.name === 'props');
  if (param) walk(props, param.type, '');
}

/** The fully qualified name of a construct of `kind` (`mesh.ServiceRouter`) in this assembly. */
export function fqnOfKind(kind: string): string {
  assemblyTypes();
  return `${assemblyName}.${kind}`;
}
