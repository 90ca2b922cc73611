import { ApiError } from '../http/api-error';
import { RetryBudget } from '../http/http-client';
import { StateRecord } from '../state/state-model';
import { diffSpec } from './diff';
import { HandlerContext, Observed, ResourceHandler, Written } from './handler';
import { findCandidates, splitBySince } from './ownership';
import { ResolvedSpec } from './resolve-spec';

/**
 * A failure after which nobody knows whether the request took effect, and that may succeed if
 * tried again: no answer (timeout, dropped connection) or a server error that is not
 * deterministic (retry-policy.ts), on a request the HTTP client did not retry itself (a POST or
 * PATCH). A failure the client already retried until its retries ran out is final: trying the
 * whole operation again would multiply the requests, not the chances.
 */
export function isAmbiguous(e: unknown): boolean {
  return e instanceof ApiError && e.retryable && !e.exhausted;
}

/**
 * The context of one operation: every retry of its requests and every recovery round (a
 * re-read and another try, counted as two) is taken from one budget of twice the client's
 * retry count, so an operation sends at most its own requests, one re-read and that budget,
 * however it fails: with 5 retries, an update whose PATCH always fails sends 13 requests (7
 * PATCHes), where retries times rounds made up to 32 before.
 */
export function withRetryBudget(ctx: HandlerContext): HandlerContext & { budget: RetryBudget } {
  const existing = (ctx as { budget?: RetryBudget }).budget;
  if (existing) return ctx as HandlerContext & { budget: RetryBudget };
  const budget = new RetryBudget(2 * ctx.http.retryLimit);
  return { ...ctx, http: ctx.http.withRetryBudget(budget), budget };
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
export async function createSafely(handler: ResourceHandler, context: HandlerContext, resolved: ResolvedSpec): Promise<Written> {
  const ctx = withRetryBudget(context);
  const since = new Date().toISOString();
  for (;;) {
    try {
      return await handler.create(ctx, resolved.value);
    } catch (e) {
      if (!isAmbiguous(e) || !ctx.budget.take(2)) throw e;
      const found = await findExisting(handler, ctx, resolved, since);
      if (found) return reconcile(handler, ctx, found.id, found.observed, resolved, undefined);
    }
  }
}

/** Brings an existing object to the spec, reading again after an ambiguous failure before another try. */
export async function reconcile(handler: ResourceHandler, context: HandlerContext, id: string, observed: Observed,
  resolved: ResolvedSpec, prior: StateRecord | undefined): Promise<Written> {
  const ctx = withRetryBudget(context);
  let current = observed;
  for (;;) {
    const changes = diffSpec(resolved, current.fields, prior, handler);
    if (!changes.length) return { id, outputs: current.outputs };
    try {
      return await handler.update(ctx, id, resolved.value, changes, { id, spec: prior?.spec ?? {}, outputs: prior?.outputs ?? {} });
    } catch (e) {
      if (!isAmbiguous(e) || !ctx.budget.take(2)) throw e;
      const again = await handler.read(ctx, id, resolved.value);
      if (!again) throw new Error(`${ctx.address}: the object ${id} disappeared while being updated`);
      current = again;
    }
  }
}
