import { Construct } from 'constructs';
import { check } from '../core/constructs/validation';

/** Whether a value is a reference to another converge construct's attribute (`x._attrRef('id')`). */
export function isReference(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { $ref?: unknown }).$ref === 'string'
    && typeof (v as { attr?: unknown }).attr === 'string';
}

const describe = (v: unknown): string => (Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v);

/** A string (or, with `allowRef`, a reference); `required`: refused when undefined. */
export function checkString(scope: Construct, field: string, v: unknown, opts: { required?: boolean; allowRef?: boolean } = {}): void {
  if (v === undefined) { check(!opts.required, scope, field, 'is required'); return; }
  check(typeof v === 'string' || (opts.allowRef === true && isReference(v)), scope, field,
    `must be a string${opts.allowRef ? ' or a reference to another construct' : ''} (got ${describe(v)})`);
}

export function checkBoolean(scope: Construct, field: string, v: unknown): void {
  if (v === undefined) return;
  check(typeof v === 'boolean', scope, field, `must be a boolean (got ${describe(v)})`);
}

/** A list whose items are strings (or references, with `allowRef`). */
export function checkStringList(scope: Construct, field: string, v: unknown, allowRef = false): void {
  if (v === undefined) return;
  check(Array.isArray(v), scope, field, `must be a list (got ${describe(v)})`);
  (v as unknown[]).forEach((x, i) => checkString(scope, `${field}[${i}]`, x, { required: true, allowRef }));
}

/** A list of objects. */
export function checkObjectList(scope: Construct, field: string, v: unknown): void {
  if (v === undefined) return;
  check(Array.isArray(v), scope, field, `must be a list (got ${describe(v)})`);
  (v as unknown[]).forEach((x, i) => check(typeof x === 'object' && x !== null && !Array.isArray(x), scope, `${field}[${i}]`, `must be an object (got ${describe(x)})`));
}
