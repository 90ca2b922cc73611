import { Construct } from 'constructs';
import { SecretValue } from '../../core/constructs/secret-value';
import { check, durationSeconds } from '../../core/constructs/validation';
import { isAttrRef } from '../../core/model';

/** Custom metadata limits of the service. */
export const KV_CUSTOM_METADATA_LIMITS = { maxKeys: 64, maxKeyLength: 128, maxValueLength: 512 };

/** A mount path: not empty, no leading or trailing `/`, no `.` or `..` segment. */
export function checkMount(scope: Construct, mount: string): void {
  check(typeof mount === 'string', scope, 'mount', `must be a string (got ${JSON.stringify(mount)})`);
  check(mount.length > 0, scope, 'mount', 'must not be empty');
  check(!mount.startsWith('/') && !mount.endsWith('/'), scope, 'mount', `"${mount}" must not start or end with "/"`);
  check(mount.split('/').every((s) => s !== '' && s !== '.' && s !== '..'), scope, 'mount',
    `"${mount}" must not contain empty, "." or ".." segments`);
}

/** KV data values: strings, finite numbers, booleans, SecretValues or references to another construct's attribute. */
export function checkKvData(scope: Construct, data: { [key: string]: any }): void {
  check(typeof data === 'object' && data !== null && !Array.isArray(data), scope, 'data', 'must be a map of key to value');
  for (const [k, v] of Object.entries(data)) {
    check(k.length > 0, scope, 'data', 'keys must not be empty');
    const ok = typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))
      || SecretValue.isSecretValue(v) || isAttrRef(v);
    check(ok, scope, `data.${k}`, 'must be a string, a finite number, a boolean, a SecretValue or an attribute of another converge construct');
  }
}

/** Custom metadata: at most 64 keys, keys 1 to 128 and values 1 to 512 characters (the service refuses empty ones). */
export function checkCustomMetadata(scope: Construct, cm: { [key: string]: string }): void {
  check(typeof cm === 'object' && cm !== null && !Array.isArray(cm), scope, 'customMetadata', 'must be a map of key to string');
  const entries = Object.entries(cm);
  const l = KV_CUSTOM_METADATA_LIMITS;
  check(entries.length <= l.maxKeys, scope, 'customMetadata', `must have at most ${l.maxKeys} keys (got ${entries.length})`);
  for (const [k, v] of entries) {
    check(k.length > 0 && k.length <= l.maxKeyLength, scope, `customMetadata.${k.slice(0, 40)}`,
      `key must be 1 to ${l.maxKeyLength} characters (got ${k.length})`);
    check(typeof v === 'string', scope, `customMetadata.${k}`, 'value must be a string');
    check(v.length > 0 && v.length <= l.maxValueLength, scope, `customMetadata.${k}`,
      `value must be 1 to ${l.maxValueLength} characters (got ${v.length})`);
  }
}

/**
 * A duration prop typed as a string (the schema checks it is a duration): the service keeps
 * `delete_version_after` in whole seconds, so a fraction would read back different.
 */
export function checkWholeSeconds(scope: Construct, field: string, value: string | undefined): void {
  if (value === undefined) return;
  check(typeof value === 'string', scope, field, `must be a duration string such as "1h" (got ${typeof value})`);
  check(Number.isInteger(durationSeconds(value)), scope, field, `"${value}" must be a whole number of seconds (the service keeps seconds)`);
}
