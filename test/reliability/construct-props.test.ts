import { App, TerraformStack } from 'cdktf';
import fc from 'fast-check';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import { ABSTRACT_BASES, allKinds, ConstructClass, exportedConstructClasses, KIND_PROPS, KIND_VARIANTS, KindProps } from './kind-props';

// Property-based tests of every construct's props: valid values synthesize; invalid ones fail in the
// constructor with an error naming the construct path, the field and the rule.
const RUNS = 25;
const classes = exportedConstructClasses();
const kinds = allKinds();
const tried = { valid: 0, invalid: 0 };
// The figure docs/reliability.md reports.
afterAll(() => console.log(`construct props: ${kinds.length} kinds, ${tried.valid} valid and ${tried.invalid} invalid props tried`));

/** Builds the construct in a fresh stack and synthesizes its desired state. */
function synth(cls: ConstructClass, props: Record<string, unknown>): any {
  const stack = new TerraformStack(new App(), 's');
  new cls(stack, 'c', props);
  return ConvergeTesting.desiredState(stack);
}

/** Whether synthesizing fails with an error naming the construct path and the field. */
function refusedClearly(cls: ConstructClass, props: Record<string, unknown>, field: string): { ok: boolean; message: string } {
  try {
    synth(cls, props);
    return { ok: false, message: '(accepted)' };
  } catch (e) {
    const message = (e as Error).message;
    return { ok: message.includes('s/c') && message.includes(field) && message.length > 's/c: '.length + field.length, message };
  }
}

/** Values of the wrong type for a field, judged by its valid value. */
function wrongTypes(valid: unknown): unknown[] {
  if (typeof valid === 'string') return [0, 42, true, {}, ['x']];
  if (typeof valid === 'number') return ['5', true, {}];
  if (typeof valid === 'boolean') return ['true', 1, {}];
  if (Array.isArray(valid)) return ['x', 7, { a: 1 }];
  if (SecretValue.isSecretValue(valid)) return ['plain', 7, {}];
  return ['x', 7, ['a']];
}

interface Case { name: string; gap: string; field: string; props: fc.Arbitrary<Record<string, unknown>>; examples?: Record<string, unknown>[] }

/** Every invalid-input property of a kind. */
function invalidCases(entry: KindProps): Case[] {
  const all = { ...entry.base, ...(entry.optional ?? {}) };
  const out: Case[] = [];
  for (const field of Object.keys(entry.base)) {
    const { [field]: _removed, ...rest } = entry.base;
    out.push({ name: `${field} missing`, gap: `${field}:missing`, field, props: fc.constant(rest) });
    if (typeof entry.base[field] === 'string') {
      out.push({ name: `${field} empty`, gap: `${field}:empty`, field, props: fc.constant({ ...entry.base, [field]: '' }) });
    }
  }
  for (const [field, valid] of Object.entries(all)) {
    // Every wrong value is tried (as examples), so a gap shows on every run.
    const examples = wrongTypes(valid).map((v) => ({ ...entry.base, [field]: v }));
    out.push({ name: `${field} of a wrong type`, gap: `${field}:type`, field, props: fc.constantFrom(...examples), examples });
  }
  for (const [field, arb] of Object.entries(entry.invalid ?? {})) {
    out.push({ name: `${field} invalid`, gap: `${field}:invalid`, field, props: arb.map((v) => ({ ...entry.base, [field]: v })) });
  }
  return out;
}

test('every registered kind has an exported construct class and a props entry; every construct class is registered', () => {
  expect(kinds.length).toBeGreaterThan(10);
  const missing = kinds.filter((k) => !KIND_PROPS[k]);
  expect({ kindsWithoutPropsEntry: missing }).toEqual({ kindsWithoutPropsEntry: [] });
  expect({ kindsWithoutClass: kinds.filter((k) => !classes.has(k)) }).toEqual({ kindsWithoutClass: [] });
  const unregistered = [...classes.keys()].filter((k) => !kinds.includes(k) && !ABSTRACT_BASES.includes(k) && !kinds.includes(KIND_VARIANTS[k]));
  expect({ classesWithoutHandler: unregistered }).toEqual({ classesWithoutHandler: [] });
});

describe.each(kinds.filter((k) => KIND_PROPS[k] && classes.has(k)))('%s', (kind) => {
  const entry = KIND_PROPS[kind];
  const cls = classes.get(kind)!;
  const gaps = new Set(entry.gaps ?? []);

  test('valid props synthesize, with the kind and every default filled in', () => {
    const optionalKeys = Object.keys(entry.optional ?? {});
    const generated = fc.record(Object.fromEntries(Object.entries(entry.valid ?? {})));
    fc.assert(fc.property(fc.subarray(optionalKeys), generated, (keys, gen) => {
      const props: Record<string, unknown> = { ...entry.base };
      for (const k of keys) props[k] = entry.optional![k];
      for (const [k, v] of Object.entries(gen)) if (k in entry.base || keys.includes(k)) props[k] = v;
      tried.valid++;
      const state = synth(cls, props);
      const res = state.resources.c;
      expect(res.kind).toBe(kind);
      expect(res.path).toBe('s/c');
      // JSON all the way down: no undefined left for the engine to guess.
      expect(JSON.parse(JSON.stringify(res.spec))).toEqual(res.spec);
    }), { numRuns: RUNS });
  });

  for (const c of invalidCases(entry)) {
    const t = gaps.has(c.gap) ? test.failing : test;
    t(`refuses ${c.name}, naming path and field`, () => {
      fc.assert(fc.property(c.props, (props) => {
        tried.invalid++;
        const r = refusedClearly(cls, props, c.field);
        if (!r.ok) throw new Error(`${kind} ${c.name}: ${JSON.stringify(props, (_k, v) => (v === undefined ? '<undefined>' : v))} -> ${r.message}`);
      }), { numRuns: RUNS, examples: (c.examples ?? []).map((e) => [e]) });
    });
  }

  test('the gap list names only existing cases', () => {
    const names = new Set(invalidCases(entry).map((c) => c.gap));
    expect([...gaps].filter((g) => !names.has(g))).toEqual([]);
  });
});
