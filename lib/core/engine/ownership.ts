import { ApiError } from '../http/api-error';
import { StateRecord } from '../state/state-model';
import { Candidate, HandlerContext, ResourceHandler, Spec } from './handler';

/**
 * Who owns what: converge changes and deletes only what it created or was told to import. These
 * helpers decide, for objects whose identity the server assigns, which existing object (if any)
 * an interrupted create of converge's made.
 */

/** The handler's candidates for a spec; a search that meets a 404 (its parent does not exist yet) found nothing. */
export async function findCandidates(handler: ResourceHandler, ctx: HandlerContext, spec: Spec): Promise<Candidate[]> {
  if (!handler.find) return [];
  try {
    return await handler.find(ctx, spec);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return [];
    throw e;
  }
}

/**
 * Candidates split by whether converge's create, started at `since`, may have made them: created at
 * or after it. A candidate without a creation time counts as ours only where the API refuses a
 * second object with the same key (then it cannot predate a create that succeeded).
 */
export function splitBySince(handler: ResourceHandler, candidates: Candidate[], since: string | undefined): { ours: Candidate[]; others: Candidate[] } {
  const start = since ? Date.parse(since) : NaN;
  const ours: Candidate[] = [];
  const others: Candidate[] = [];
  for (const c of candidates) {
    // A creation time given to the second may read up to a second before the intent was written.
    const created = c.createdAt ? Date.parse(c.createdAt) + (/\.\d/.test(c.createdAt) ? 0 : 999) : NaN;
    const mine = Number.isFinite(created) && Number.isFinite(start) ? created >= start : !c.createdAt && !!handler.uniqueFindKey && candidates.length === 1;
    (mine ? ours : others).push(c);
  }
  return { ours, others };
}

/** The candidates an intent in state may have made (see splitBySince). */
export async function intentCandidates(handler: ResourceHandler, ctx: HandlerContext, spec: Spec, intent: StateRecord): Promise<{ ours: Candidate[]; others: Candidate[] }> {
  return splitBySince(handler, await findCandidates(handler, ctx, spec), intent.since);
}
