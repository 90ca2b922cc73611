import { Token } from 'cdktf';
import { Construct } from 'constructs';
import { FieldSchema, FieldsSchema } from './kind-schema';
import { isAttrRef } from '../model';
import { SecretValue } from '../constructs/secret-value';
import { durationSeconds, reject } from '../constructs/validation';

const describe = (v: unknown): string => (Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v === 'string' ? `"${v}"` : typeof v);

/** A value known only at apply (a reference to another construct's attribute): its type is checked, not its content. */
function isLate(v: unknown): boolean {
  return isAttrRef(v) || ((typeof v === 'string' || typeof v === 'number' || Array.isArray(v)) && Token.isUnresolved(v));
}

/**
 * Checks props against a kind's fields (each broken rule is refused through `reject`): every field's type, closed sets, ranges, patterns and the
 * fields of nested structs, naming the construct path and the field (`prod/org: sessionTimeout must
 * be an integer from 1 (got 0)`). Unknown keys and missing required fields of nested structs are
 * refused earlier, from the jsii assembly (`struct-shapes.ts`, `required-props.ts`).
 */
export function validateProps(scope: Construct, fields: FieldsSchema, props: Record<string, unknown>, prefix = ''): void {
  for (const [key, field] of Object.entries(fields)) {
    const v = props[key];
    const path = prefix + key;
    if (v === undefined || v === null) {
      if (field.required) reject(scope, path, 'is required');
      continue;
    }
    const rule = ruleBroken(field, v);
    if (rule) {
      // A rule about one item of a list or map (`[2] must be a string`, `.tier must be a string`) names the item's path.
      const item = /^(\[\d+\]|\.[^ ]+) (.*)$/s.exec(rule);
      reject(scope, item ? path + item[1] : path, item ? item[2] : rule);
      continue;
    }
    if (field.type === 'object') validateProps(scope, field.fields ?? {}, v as Record<string, unknown>, `${path}.`);
    if (field.type === 'object-list') {
      (v as unknown[]).forEach((item, i) => {
        if (item === null || typeof item !== 'object' || Array.isArray(item)) return reject(scope, `${path}[${i}]`, `must be a struct (got ${describe(item)})`);
        validateProps(scope, field.fields ?? {}, item as Record<string, unknown>, `${path}[${i}].`);
      });
    }
    if (field.type === 'object-map') {
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        if (item === null || typeof item !== 'object' || Array.isArray(item)) {
          reject(scope, `${path}.${k}`, `must be a struct (got ${describe(item)})`);
          continue;
        }
        validateProps(scope, field.fields ?? {}, item as Record<string, unknown>, `${path}.${k}.`);
      }
    }
  }
}

/** What rule a value breaks, in words; undefined when none. */
function ruleBroken(field: FieldSchema, v: unknown): string | undefined {
  if (isLate(v)) return undefined;
  switch (field.type) {
    case 'string':
      if (typeof v !== 'string') return `must be a string (got ${describe(v)})`;
      if (field.oneOf && !field.oneOf.includes(v)) return `"${v}" must be one of ${field.oneOf.map((a) => `"${a}"`).join(', ')}`;
      if (field.pattern && !field.pattern.test(v)) return `"${v}" ${field.patternRule ?? `must match ${field.pattern}`}`;
      return undefined;
    case 'integer':
    case 'number': {
      if (typeof v !== 'number') return `must be a number (got ${describe(v)})`;
      if (!Number.isFinite(v)) return `must be a finite number (got ${v})`;
      const lo = field.min ?? -Number.MAX_SAFE_INTEGER;
      const hi = field.max ?? Number.MAX_SAFE_INTEGER;
      if ((field.type === 'integer' && !Number.isInteger(v)) || v < lo || v > hi) {
        const range = field.min === undefined && field.max === undefined ? '' :
          field.max === undefined ? ` from ${lo}` : field.min === undefined ? ` up to ${hi}` : ` from ${lo} to ${hi}`;
        return `must be ${field.type === 'integer' ? 'an integer' : 'a number'}${range} (got ${v})`;
      }
      return undefined;
    }
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `must be true or false (got ${describe(v)})`;
    case 'duration': {
      // Every duration prop is typed string (`"1h"`, `"90s"`, `"3600"`): a number is a caller's mistake that jsii's types would refuse.
      if (typeof v !== 'string') return `must be a duration string such as "1h" (got ${describe(v)})`;
      const s = durationSeconds(v);
      if (Number.isNaN(s)) return `"${v}" is not a duration (use e.g. "30s", "1h30m" or a number of seconds)`;
      if (field.min !== undefined && s < field.min) return `must be at least ${field.min} seconds (got "${v}")`;
      return undefined;
    }
    case 'string-list':
    case 'string-set': {
      if (!Array.isArray(v)) return `must be a list of strings (got ${describe(v)})`;
      const bad = v.findIndex((s) => !isLate(s) && (typeof s !== 'string' || (field.pattern !== undefined && !field.pattern.test(s))));
      if (bad >= 0) return `[${bad}] ${typeof v[bad] !== 'string' ? `must be a string (got ${describe(v[bad])})` : `"${v[bad]}" ${field.patternRule ?? `must match ${field.pattern}`}`}`;
      if (field.oneOf) {
        const out = v.find((s) => typeof s === 'string' && !field.oneOf!.includes(s));
        if (out !== undefined) return `"${out}" must be one of ${field.oneOf.map((a) => `"${a}"`).join(', ')}`;
      }
      return undefined;
    }
    case 'string-map':
      if (typeof v !== 'object' || Array.isArray(v)) return `must be a map of strings (got ${describe(v)})`;
      for (const [k, x] of Object.entries(v as object)) if (typeof x !== 'string' && !isLate(x)) return `.${k} must be a string (got ${describe(x)})`;
      return undefined;
    case 'secret':
      return v instanceof SecretValue ? undefined : `must be a SecretValue (SecretValue.fromEnv, fromFile, …), not ${describe(v)}: a secret is never written into the app`;
    case 'object':
      return typeof v === 'object' && !Array.isArray(v) ? undefined : `must be a struct (got ${describe(v)})`;
    case 'object-list':
      return Array.isArray(v) ? undefined : `must be a list of structs (got ${describe(v)})`;
    case 'object-map':
      return typeof v === 'object' && !Array.isArray(v) ? undefined : `must be a map of structs (got ${describe(v)})`;
    default:
      return undefined;
  }
}
