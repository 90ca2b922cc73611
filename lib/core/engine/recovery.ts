import { StateRecord } from '../state/state-model';
import { diffSpec } from './diff';
import { HandlerContext, Observed, ResourceHandler, Written } from './handler';
import { ApiError } from '../http/api-error';
import { findCandidates, splitBySince } from './ownership';
import { ResolvedSpec } from './resolve-spec';

/** Attempts after an ambiguous failure before giving up. */
const ATTEMPTS = 6;

/**
 * A failure after which nobody knows whether the request took effect: no answer (timeout,
 * dropped connection), a server error, or a rate limit that outlasted the retries.
 */
export function isAmbiguous(e: unknown): boolean {
  return e instanceof ApiError && (e.status === 0 || e.status >= 500 || e.status === 429);
}

/**
 * The object an ambiguous create (started at `since`) made, if any: by natural key, else the single
 * candidate created at or after `since` (never one that may be somebody else's).
 */
async function findExisting(handler: ResourceHandler, ctx: HandlerContext, resolved: ResolvedSpec, since: string): Promise<{ id: string; observed: Observed } | undefined> {
  let id = handler.naturalId(resolved.value);
  if (!id && handler.find) {
    const { ours } = splitBySince(handler, await findCandidates(handler, ctx, resolved.value), since);
    if (ours.length > 1) throw new Error(`${ctx.address}: a create whose answer was lost may have made any of ${ours.map((c) => c.id).join(', ')}; not creating another`);
    id = ours[0]?.id;
  }
  if (!id) return undefined;
  const observed = await handler.read(ctx, id, resolved.value);
  return observed ? { id, observed } : undefined;
}

/**
 * Creates an object. A create is never blindly repeated: after an ambiguous failure converge
 * first reads by natural key (or searches) to learn whether it happened, and adopts what it finds.
 */
export async function createSafely(handler: ResourceHandler, ctx: HandlerContext, resolved: ResolvedSpec): Promise<Written> {
  const since = new Date().toISOString();
  for (let attempt = 0; ; attempt++) {
    try {
      return await handler.create(ctx, resolved.value);
    } catch (e) {
      if (!isAmbiguous(e) || attempt >= ATTEMPTS) throw e;
      const found = await findExisting(handler, ctx, resolved, since);
      if (found) return reconcile(handler, ctx, found.id, found.observed, resolved, undefined);
    }
  }
}

/** Brings an existing object to the spec, reading again after an ambiguous failure before another try. */
export async function reconcile(handler: ResourceHandler, ctx: HandlerContext, id: string, observed: Observed,
  resolved: ResolvedSpec, prior: StateRecord | undefined): Promise<Written> {
  let current = observed;
  for (let attempt = 0; ; attempt++) {
    const changes = diffSpec(resolved, current.fields, prior, handler);
    if (!changes.length) return { id, outputs: current.outputs };
    try {
      return await handler.update(ctx, id, resolved.value, changes, { id, spec: prior?.spec ?? {}, outputs: prior?.outputs ?? {} });
    } catch (e) {
      if (!isAmbiguous(e) || attempt >= ATTEMPTS) throw e;
      const again = await handler.read(ctx, id, resolved.value);
      if (!again) throw new Error(`${ctx.address}: the object ${id} disappeared while being updated`);
      current = again;
    }
  }
}
