import { Construct } from 'constructs';
import { check, checkDuration } from '../core/constructs/validation';
import { HandlerContext } from '../core/engine/handler';
import { SecretsClient } from './client/secrets-client';
import { checkSegmentName } from './prop-checks';

/** Helpers shared by the database and directory constructs and handlers. */

export function secretsClient(ctx: HandlerContext): SecretsClient {
  return new SecretsClient(ctx.http);
}

/** Splits an API-path id `<mount>/<section>/<name>` at the last `/<section>/` (mounts may hold slashes). */
export function splitApiPath(id: string, section: string): { mount: string; name: string } {
  const at = id.lastIndexOf(`/${section}/`);
  const name = at > 0 ? id.slice(at + section.length + 2) : '';
  if (at <= 0 || !name || name.includes('/')) throw new Error(`id "${id}" must be <mount>/${section}/<name>`);
  return { mount: id.slice(0, at), name };
}

/** Checks an import id `<mount>/<section>/<name>` (`database/roles/app`). */
export function apiPathImportId(id: string, section: string, example: string): string {
  try {
    splitApiPath(id, section);
  } catch {
    throw new Error(`import id "${id}" must be <mount>/${section}/<name>, e.g. ${example}`);
  }
  return id;
}

/** The top-level spec fields a plan's changes touch. */
export function touchedFields(changes: readonly { path: string }[]): Set<string> {
  return new Set(changes.map((c) => c.path.split(/[.[]/)[0]));
}

/** An object name in a path segment (see checkSegmentName for the rule the service applies). */
export function checkObjectName(scope: Construct, field: string, name: string): void {
  checkSegmentName(scope, field, name);
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
