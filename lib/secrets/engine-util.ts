import { HandlerContext } from '../core/engine/handler';
import { topKey } from '../core/engine/diff';
import { ApiError } from '../core/http/api-error';
import { SecretsClient } from './client/secrets-client';

/** Helpers every secrets engine's handlers share. */

/** The secrets client of a handler's context. */
export function secretsClient(ctx: HandlerContext): SecretsClient {
  return new SecretsClient(ctx.http);
}

/**
 * Splits an API-path id `<mount>/<section>/<name>` at the last `/<section>/` (mounts may hold slashes);
 * undefined when the id has another shape.
 */
export function splitPathId(id: string, section: string): { mount: string; name: string } | undefined {
  const at = id.lastIndexOf(`/${section}/`);
  if (at <= 0) return undefined;
  const name = id.slice(at + section.length + 2);
  if (!name || name.includes('/')) return undefined;
  return { mount: id.slice(0, at), name };
}

/** As `splitPathId`, for an id converge recorded itself: another shape is an error. */
export function splitApiPath(id: string, section: string): { mount: string; name: string } {
  const parts = splitPathId(id, section);
  if (!parts) throw new Error(`id "${id}" must be <mount>/${section}/<name>`);
  return parts;
}

/** Checks an import id of the form `<mount>/<section>/<name>` (`database/roles/app`). */
export function pathImportId(id: string, section: string, example: string): string {
  if (!splitPathId(id, section)) throw new Error(`import id "${id}" must be <mount>/${section}/<name>, e.g. ${example}`);
  return id;
}

/** The names of the top-level fields a plan's changes touch. */
export function touchedFields(changes: readonly { path: string }[]): Set<string> {
  return new Set(changes.map((c) => topKey(c.path)));
}

/** The 404 a read of an absent object answers, for data sources that need the object. */
export function secretNotFound(what: string, method: string, path: string, address: string): ApiError {
  return new ApiError(404, [what], method, path, 'secrets', address, 'SECRETS_TOKEN');
}
