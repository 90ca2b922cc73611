/**
 * Required props, checked at the shared depth: every construct's props interface says in the jsii
 * assembly (`.jsii`, shipped in the package) which fields are required, so a missing one is refused
 * as `prod/org: email is required`, not by a later rule that reads `undefined` as a value.
 * Nested structs (a splitter's `splits[0].weight`) are checked the same way.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Construct } from 'constructs';
import { reject } from './validation';

interface TypeRef { fqn?: string; primitive?: string; collection?: { kind: string; elementtype: TypeRef } }
interface Property { name: string; optional?: boolean; type: TypeRef }
interface JsiiType { kind: string; datatype?: boolean; properties?: Property[]; interfaces?: string[]; initializer?: { parameters?: { type: TypeRef }[] } }

let assembly: Record<string, JsiiType> | null | undefined;

function types(): Record<string, JsiiType> | null {
  if (assembly === undefined) {
    try {
      const doc = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '.jsii'), 'utf8')) as { name: string; types: Record<string, JsiiType> };
      assembly = doc.types;
    } catch {
      assembly = null; // not built yet (a test run from source before the first build): no check
    }
  }
  return assembly;
}

/** Every property of a struct, its base interfaces' included. */
function propertiesOf(fqn: string, all: Record<string, JsiiType>): Property[] {
  const t = all[fqn];
  if (!t) return [];
  return [...(t.properties ?? []), ...(t.interfaces ?? []).flatMap((i) => propertiesOf(i, all))];
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first missing required field under `value` (a struct of type `fqn`), as a path; undefined when none. */
function firstMissing(fqn: string, value: Record<string, unknown>, prefix: string, all: Record<string, JsiiType>): string | undefined {
  for (const p of propertiesOf(fqn, all)) {
    // A plain dict from another jsii language may still hold the field under its own spelling.
    const v = value[p.name] !== undefined ? value[p.name] : value[snake(p.name)];
    const where = `${prefix}${p.name}`;
    if (v === undefined || v === null) {
      if (!p.optional) return where;
      continue;
    }
    const missing = nestedMissing(p.type, v, where, all);
    if (missing) return missing;
  }
  return undefined;
}

function nestedMissing(type: TypeRef, v: unknown, where: string, all: Record<string, JsiiType>): string | undefined {
  if (type.fqn && all[type.fqn]?.datatype && isPlainObject(v)) return firstMissing(type.fqn, v, `${where}.`, all);
  const el = type.collection?.elementtype;
  if (!el) return undefined;
  if (type.collection!.kind === 'array' && Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const m = nestedMissing(el, v[i], `${where}[${i}]`, all);
      if (m) return m;
    }
  } else if (type.collection!.kind === 'map' && isPlainObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      const m = nestedMissing(el, x, `${where}.${k}`, all);
      if (m) return m;
    }
  }
  return undefined;
}

/**
 * Throws `<path>: <field> is required` when a required prop of the construct of `kind`
 * (`platform.Organization`) is missing from `props`.
 */
export function checkRequiredProps(scope: Construct, kind: string, props: unknown): void {
  const all = types();
  if (!all || !isPlainObject(props)) return;
  const propsType = all[`cdk-converge.${kind}`]?.initializer?.parameters?.[2]?.type.fqn;
  if (!propsType) return;
  const missing = firstMissing(propsType, props, '', all);
  if (missing) reject(scope, missing, 'is required');
}
