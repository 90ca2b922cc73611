import * as fs from 'fs';
import * as path from 'path';
import { dataSourceHandler, registeredKinds, resourceHandler } from '../../lib/core/engine/registry';
import { normalDuration } from '../../lib/core/duration';
import { FieldSchema, FieldsSchema, KindSchema } from '../../lib/core/schema';
import { registerAllKinds } from '../../lib/kinds';
import * as lib from '../../lib';
import { ROOT } from '../support/harness';

// What a prop's documentation promises (`@default`, as the jsii assembly carries it into every
// language's API reference) is what converge renders when the prop is left out (the kind schema's
// default): a doc comment that says `'1h'` while the schema sends `'0s'` fails here, for every prop
// of every construct and of the structs it takes.

registerAllKinds();

interface JsiiTypeRef { fqn?: string; primitive?: string; collection?: { kind: string; elementtype: JsiiTypeRef }; union?: { types: JsiiTypeRef[] } }
interface JsiiProperty { name: string; optional?: boolean; type: JsiiTypeRef; docs?: { default?: string } }
interface JsiiType { kind: string; abstract?: boolean; datatype?: boolean; properties?: JsiiProperty[]; interfaces?: string[];
  initializer?: { parameters?: { type: JsiiTypeRef }[] }; members?: { name: string }[] }

const assemblyFile = path.join(ROOT, '.jsii');
if (!fs.existsSync(assemblyFile)) throw new Error('.jsii is missing: run `npm run build` first');
const types = (JSON.parse(fs.readFileSync(assemblyFile, 'utf8')) as { types: Record<string, JsiiType> }).types;

/** A struct's properties, its bases' included. */
const propertiesOf = (fqn: string): JsiiProperty[] =>
  [...(types[fqn]?.properties ?? []), ...(types[fqn]?.interfaces ?? []).flatMap(propertiesOf)];

/** The struct a prop holds (alone, or as the elements of a list or map). */
function structOf(t: JsiiTypeRef): string | undefined {
  if (t.collection) return structOf(t.collection.elementtype);
  return t.fqn && types[t.fqn]?.kind === 'interface' && types[t.fqn].datatype ? t.fqn : undefined;
}

function schemaOf(kind: string): KindSchema | undefined {
  const { resources, dataSources } = registeredKinds();
  if (resources.includes(kind)) return resourceHandler(kind).schema;
  if (dataSources.includes(kind)) return dataSourceHandler(kind).schema;
  return undefined;
}

/** Every construct of the assembly that makes an object of a registered kind, with its props struct. */
const constructs = Object.entries(types)
  .filter(([, t]) => t.kind === 'class' && !t.abstract && types[t.initializer?.parameters?.[2]?.type.fqn ?? '']?.kind === 'interface')
  .map(([fqn, t]) => ({ kind: fqn.replace(/^cdk-converge\./, ''), props: t.initializer!.parameters![2].type.fqn! }))
  .map((c) => ({ ...c, schema: schemaOf(c.kind) }))
  .filter((c): c is { kind: string; props: string; schema: KindSchema } => c.schema !== undefined);

/** The runtime value of an enum member named in a doc (`ExecutionMode.REMOTE`), searched in the construct's module first. */
function enumValue(api: string, name: string, member: string): unknown {
  const modules = lib as unknown as Record<string, Record<string, Record<string, unknown>>>;
  for (const mod of [modules[api], modules.platform, modules.secrets, modules.mesh]) {
    if (mod?.[name] && typeof mod[name] === 'object' && member in mod[name]) return mod[name][member];
  }
  throw new Error(`no enum ${name}.${member}`);
}

/**
 * The value a `@default` text states, when it starts with one (`'secret'`, `""`, `0`, `false`, `[]`, `{}`,
 * `null`, `ExecutionMode.REMOTE`), whatever explanation follows it; `none` for a description (`- the
 * mount at \`mount\``) or a text that starts with no value.
 */
const NONE = Symbol('no value stated');
function statedValue(api: string, text: string): unknown {
  const t = text.trim();
  let m: RegExpExecArray | null;
  if ((m = /^'([^']*)'/.exec(t)) || (m = /^"([^"]*)"/.exec(t))) return m[1];
  if ((m = /^(-?\d+(?:\.\d+)?)(?![\w.])/.exec(t))) return Number(m[1]);
  if ((m = /^(true|false|null)\b/.exec(t))) return JSON.parse(m[1]);
  if (t.startsWith('[]')) return [];
  if (t.startsWith('{}')) return {};
  if ((m = /^([A-Z]\w*)\.([A-Z][A-Z0-9_]*)\b/.exec(t))) return enumValue(api, m[1], m[2]);
  return NONE;
}

/** Every value a description names (`- "0s": the mesh's 5s`, `- MeshTokenType.CLIENT below 1.11`, `- true unless …`). */
function valuesNamed(api: string, text: string): unknown[] {
  const out: unknown[] = [];
  for (const m of text.matchAll(/'([^']*)'|"([^"]*)"|`([^`]*)`|\b([A-Z]\w*)\.([A-Z][A-Z0-9_]*)\b|\b(true|false|-?\d+(?:\.\d+)?)\b/g)) {
    if (m[4]) out.push(enumValue(api, m[4], m[5]));
    else if (m[6]) out.push(JSON.parse(m[6]));
    else out.push(m[1] ?? m[2] ?? m[3]);
  }
  return out;
}

const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === ''
  || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

/** The schema's default when nothing else is given (a computed default is asked with no other prop). */
function schemaDefault(field: FieldSchema): unknown {
  const d = typeof field.default === 'function' ? (field.default as (p: Record<string, unknown>) => unknown)({}) : field.default;
  return field.type === 'duration' ? normalDuration(d) : d;
}

interface Finding { prop: string; doc: string | undefined; schema: unknown; problem: string }

/** Compares the documented defaults of a struct's props with the schema's fields, into nested structs. */
function compare(api: string, structFqn: string, fields: FieldsSchema, at: string, out: Finding[]): void {
  for (const p of propertiesOf(structFqn)) {
    const prop = `${at}${p.name}`;
    const doc = p.docs?.default;
    if (p.optional && doc === undefined) out.push({ prop, doc, schema: undefined, problem: 'an optional prop without @default' });
    const field = fields[p.name];
    if (!field) continue; // a reference or a setting of converge's own (provider, removalPolicy, …), not a field of the API
    const nested = structOf(p.type);
    if (nested && field.fields) compare(api, nested, field.fields, `${prop}.`, out);
    if (!p.optional || doc === undefined) continue;
    const schema = schemaDefault(field);
    const stated = statedValue(api, doc);
    const norm = (v: unknown) => (field.type === 'duration' ? normalDuration(v) : v);
    if (stated !== NONE) {
      if (JSON.stringify(norm(stated)) !== JSON.stringify(schema)) out.push({ prop, doc, schema, problem: 'the documented default is not the schema default' });
    } else if (!isEmpty(schema) && !valuesNamed(api, doc).some((v) => JSON.stringify(norm(v)) === JSON.stringify(schema))) {
      out.push({ prop, doc, schema, problem: 'the schema renders a value the description does not name' });
    }
  }
}

test('the walk reads the assembly: constructs of every API, with their documented defaults', () => {
  const apis = new Set(constructs.map((c) => c.schema.api));
  expect([...apis].sort()).toEqual(['mesh', 'platform', 'secrets']);
  expect(constructs.length).toBeGreaterThan(30);
  expect(propertiesOf('cdk-converge.secrets.KvSecretProps').find((p) => p.name === 'mount')?.docs?.default).toBe("'secret'");
});

test('the reading of a @default text', () => {
  expect(statedValue('platform', "'' (the root)")).toBe('');
  expect(statedValue('platform', '"" - no rules')).toBe('');
  expect(statedValue('platform', '64 (without a password policy)')).toBe(64);
  expect(statedValue('platform', '[] - every datacenter')).toEqual([]);
  expect(statedValue('platform', 'ExecutionMode.REMOTE')).toBe('remote');
  expect(statedValue('platform', '- none')).toBe(NONE);
  expect(valuesNamed('mesh', '- "0s": the mesh\'s 5s')).toContain('0s');
  expect(valuesNamed('secrets', '- true unless `key` or `url` is given')).toContain(true);
  expect(valuesNamed('secrets', '- MeshTokenType.CLIENT below 1.11')).toContain('client');
});

test.each(constructs.map((c) => [c.kind, c] as const))('%s: each documented @default is the schema default', (kind, c) => {
  const findings: Finding[] = [];
  compare(c.schema.api, c.props, c.schema.fields, '', findings);
  expect({ kind, findings }).toEqual({ kind, findings: [] });
});

test('every optional prop of every struct of the public API documents its @default', () => {
  const structs = Object.entries(types).filter(([, t]) => t.kind === 'interface' && t.datatype);
  expect(structs.length).toBeGreaterThan(50);
  const undocumented = structs.flatMap(([fqn, t]) => (t.properties ?? []).filter((p) => p.optional && p.docs?.default === undefined).map((p) => `${fqn}.${p.name}`));
  expect(undocumented).toEqual([]);
});
