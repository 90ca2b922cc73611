import { Construct } from 'constructs';
import { check, checkDuration } from '../core/constructs/validation';
import { SecretValue } from '../core/constructs/secret-value';
import { FieldSchema } from '../core/schema/kind-schema';

/**
 * Type and name checks shared by the secrets engine constructs. jsii types the props, but JavaScript
 * callers (and JSON-driven stacks) can still hand a number for a string or a plain string for a
 * SecretValue; refusing those at synth beats a confusing API error at apply.
 */

const describe = (v: unknown): string => (Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v);

/**
 * What the secrets service takes as the name of a role, connection, set or method (a path segment):
 * ASCII letters, digits, `_`, `-` and `.`, starting and ending with a letter, digit or `_`
 * (so no spaces, `/`, `%`, unicode, nor `.`/`..` segments).
 */
const SEGMENT_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;

/** An object name the service addresses as one path segment. */
export function checkSegmentName(scope: Construct, field: string, v: unknown): void {
  check(typeof v === 'string', scope, field, `must be a string (got ${describe(v)})`);
  check((v as string).length > 0, scope, field, 'must not be empty');
  check(!(v as string).includes('/'), scope, field, `"${v}" must not contain "/" (the name is one path segment)`);
  check(SEGMENT_NAME.test(v as string), scope, field,
    `"${v}" must hold only letters, digits, "_", "-" and "." and start and end with a letter, digit or "_" (no spaces, "/", "%" or unicode)`);
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

/** A mount path as a pattern: not empty, no leading or trailing `/`, no empty, `.` or `..` segment. */
const MOUNT_PATH = /^(?!\.\.?(?:\/|$))[^/]+(?:\/(?!\.\.?(?:\/|$))[^/]+)*$/;

/**
 * The schema field of an engine's mount path (`lib/core/schema`): in the request path, never in a
 * body, and a change addresses another object (replaced).
 */
export function mountField(defaultMount: string): FieldSchema {
  return {
    type: 'string', local: true, replace: true, default: defaultMount, pattern: MOUNT_PATH,
    patternRule: 'must be a mount path: not empty, no leading or trailing "/", no empty, "." or ".." segment',
  };
}

/** The schema field of an object the service names by one path segment (a role): required, in the path, replaced on change. */
export const SEGMENT_NAME_FIELD: FieldSchema = {
  type: 'string', required: true, local: true, replace: true, pattern: SEGMENT_NAME,
  patternRule: 'must hold only letters, digits, "_", "-" and "." and start and end with a letter, digit or "_" (no spaces, "/", "%" or unicode)',
};
