import { HandlerContext } from '../core/engine/handler';
import { SecretsClient } from './client/secrets-client';

/** The secrets client of a handler's context. */
export function secretsOf(ctx: HandlerContext): SecretsClient {
  return new SecretsClient(ctx.http);
}

/** Splits an API-path id `<mount>/<section>/<name>` at the last `/<section>/` (mounts may hold slashes). */
export function splitPathId(id: string, section: string): { mount: string; name: string } | undefined {
  const at = id.lastIndexOf(`/${section}/`);
  if (at <= 0) return undefined;
  const name = id.slice(at + section.length + 2);
  if (!name || name.includes('/')) return undefined;
  return { mount: id.slice(0, at), name };
}

/** Checks an import id of the form `<mount>/<section>/<name>`. */
export function pathImportId(id: string, section: string, example: string): string {
  if (!splitPathId(id, section)) throw new Error(`import id "${id}" must be <mount>/${section}/<name>, e.g. ${example}`);
  return id;
}

/** The names of the top-level fields a plan's changes touch. */
export function touched(changes: readonly { path: string }[]): Set<string> {
  return new Set(changes.map((c) => c.path.split(/[.[]/)[0]));
}
