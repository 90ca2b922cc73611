import { HandlerContext } from '../core/engine/handler';
import { PlatformClient } from './client/platform-client';
import { stringSet } from '../core/string-set';

/** The domain client over the engine's HTTP client (errors name the construct address). */
export function platformClient(ctx: HandlerContext): PlatformClient {
  return new PlatformClient(ctx.http, ctx.address);
}

/** Splits an import id `<organization>/<name>`; undefined when it is not of that form. */
export function orgAndName(id: string): { organization: string; name: string } | undefined {
  const m = /^([A-Za-z0-9_-]+)\/([^/]+)$/.exec(id);
  return m ? { organization: m[1], name: m[2] } : undefined;
}

/** A list of ids the platform keeps as a set, each once and sorted (so that neither order nor repeats show as a change). */
export function sortedStrings(v: unknown): string[] {
  return Array.isArray(v) ? stringSet(v.map(String)) : [];
}
