import { Construct } from 'constructs';
import { check, checkDuration } from '../../core/constructs/validation';
import { SecretValue } from '../../core/constructs/secret-value';
import { SEGMENT_NAME, SEGMENT_NAME_RULE } from './engine-fields';

/**
 * Type and name checks shared by the secrets engine constructs. jsii types the props, but JavaScript
 * callers (and JSON-driven stacks) can still hand a number for a string or a plain string for a
 * SecretValue; refusing those at synth beats a confusing API error at apply.
 */

const describe = (v: unknown): string => (Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v);


/** An object name the service addresses as one path segment. */
export function checkSegmentName(scope: Construct, field: string, v: unknown): void {
  check(typeof v === 'string', scope, field, `must be a string (got ${describe(v)})`);
  check((v as string).length > 0, scope, field, 'must not be empty');
  check(!(v as string).includes('/'), scope, field, `"${v}" must not contain "/" (the name is one path segment)`);
  check(SEGMENT_NAME.test(v as string), scope, field, `"${v}" ${SEGMENT_NAME_RULE}`);
}

/** An optional string prop. */
export function checkOptString(scope: Construct, field: string, v: unknown): void {
  check(v === undefined || typeof v === 'string', scope, field, `must be a string (got ${describe(v)})`);
}

/** An optional boolean prop. */
export function checkOptBoolean(scope: Construct, field: string, v: unknown): void {
  check(v === undefined || typeof v === 'boolean', scope, field, `must be true or false (got ${describe(v)})`);
}

/** An optional SecretValue prop (a plain string would end up in the desired state in clear). */
export function checkOptSecretValue(scope: Construct, field: string, v: unknown): void {
  check(v === undefined || SecretValue.isSecretValue(v), scope, field,
    `must be a SecretValue (e.g. SecretValue.fromEnv(...)), not ${describe(v)}`);
}

/** An optional list of strings. */
export function checkOptStringArray(scope: Construct, field: string, v: unknown): void {
  if (v === undefined) return;
  check(Array.isArray(v), scope, field, `must be a list of strings (got ${describe(v)})`);
  (v as unknown[]).forEach((x, i) => check(typeof x === 'string', scope, `${field}[${i}]`, `must be a string (got ${describe(x)})`));
}

/** A whole-second duration string (`"1h"`, `"90s"`, `"3600"`), at least `min` seconds; answers the seconds. */
export function checkSeconds(scope: Construct, field: string, value: string, min = 0): number {
  check(typeof value === 'string', scope, field, `must be a duration string such as "1h" (got ${Array.isArray(value) ? 'a list' : typeof value})`);
  const s = checkDuration(scope, field, value, min)!;
  check(Number.isInteger(s), scope, field, `"${value}" must be a whole number of seconds (the service keeps seconds)`);
  return s;
}

/** A list of non-empty strings. */
export function checkStringList(scope: Construct, field: string, list: readonly string[]): void {
  check(Array.isArray(list), scope, field, 'must be a list of strings');
  list.forEach((s, i) => check(typeof s === 'string' && s.trim() !== '', scope, `${field}[${i}]`, 'must be a non-empty string'));
}

