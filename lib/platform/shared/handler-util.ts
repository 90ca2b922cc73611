import { HandlerContext, Observed, PrefetchWant } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { FieldsSchema, fromWire, KindSchema, toWire } from '../../core/schema';
import { PlatformClient } from '../client/platform-client';

/** The domain client over the engine's HTTP client (errors name the construct address). */
export function platformClient(ctx: HandlerContext): PlatformClient {
  return new PlatformClient(ctx.http, ctx.address);
}

/** Splits an import id `<organization>/<name>`; undefined when it is not of that form. */
export function orgAndName(id: string): { organization: string; name: string } | undefined {
  const m = /^([A-Za-z0-9_-]+)\/([^/]+)$/.exec(id);
  return m ? { organization: m[1], name: m[2] } : undefined;
}

/** The platform client speaks camelCase attributes (it kebab-cases them on the wire). */
const CLIENT = { wireCase: 'camel' } as const;

const camel = (s: string): string => s.replace(/[-_]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const clientFieldsCache = new WeakMap<FieldsSchema, FieldsSchema>();

/** A kind's fields as the platform client names them: a wire name of the spec (`oauth-token-string`, `auto_apply`) camelCased. */
function clientFields(fields: FieldsSchema): FieldsSchema {
  const cached = clientFieldsCache.get(fields);
  if (cached) return cached;
  const out = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, {
    ...f,
    ...(f.wire ? { wire: camel(f.wire) } : {}),
    ...(f.fields ? { fields: clientFields(f.fields) } : {}),
  }]));
  clientFieldsCache.set(fields, out);
  return out;
}

/** The client attributes of a resolved spec (`toWire` in the client's camelCase); local fields left out. */
export function toClient(schema: KindSchema, spec: Record<string, unknown>): Record<string, unknown> {
  return toWire(CLIENT, clientFields(schema.fields), spec);
}

/** The observed fields of a client document (`fromWire` in the client's camelCase); write-only and local fields left out. */
export function fromClient(schema: KindSchema, doc: object): Record<string, unknown> {
  return fromWire(CLIENT, clientFields(schema.fields), doc as Record<string, unknown>);
}

/**
 * Prefetch for kinds listed per organization (agent pools, OAuth clients): where an organization holds
 * two or more of the objects wanted (by the app's or the last apply's organization), one list of the
 * organization answers them; an object not in that list is left to be read one by one (it may have
 * moved). An organization that is gone answers nothing.
 */
export async function prefetchByOrganization(wanted: readonly PrefetchWant[],
  list: (organization: string) => Promise<Map<string, Observed>>): Promise<Map<string, Observed | null>> {
  const byOrg = new Map<string, PrefetchWant[]>();
  for (const w of wanted) {
    const org = (w.prior?.spec.organization ?? w.desired.organization);
    if (typeof org !== 'string' || !w.prior) continue;
    byOrg.set(org, [...(byOrg.get(org) ?? []), w]);
  }
  const known = new Map<string, Observed | null>();
  for (const [org, ws] of byOrg) {
    if (ws.length < 2) continue;
    let listed: Map<string, Observed>;
    try {
      listed = await list(org);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) continue;
      throw e;
    }
    for (const w of ws) {
      const o = listed.get(w.id);
      if (o) known.set(w.id, o);
    }
  }
  return known;
}

/** The values a server answers for "no value" in a string field. */
const UNSET_FORMS: readonly unknown[] = ['', '-'];

/**
 * Fields the server does not keep. A field it never returns, or answers in its unset form (`""`,
 * `"-"`) where converge wrote a value, is left out of `fields` (the engine then compares it with
 * what the last apply wrote, so it is no drift on every plan); an unset form where converge wrote
 * none reads as null. Answers the plan's note for each such field the plan is about to write
 * again (the app asks for another value than the last apply wrote), so it is said once, not on
 * every plan. `keys`: the top-level fields to look at (default: every field the document carries by
 * its schema name).
 */
export function dropFieldsNotKept(schema: KindSchema, doc: object, fields: Record<string, unknown>,
  desired: Record<string, unknown> | undefined, prior: { spec: Record<string, unknown> } | undefined, keys?: readonly string[]): string[] {
  const clientDoc = doc as Record<string, unknown>;
  const notes: string[] = [];
  for (const [key, field] of Object.entries(schema.fields)) {
    if (field.writeOnly || field.local || (keys && !keys.includes(key))) continue;
    const wire = field.wire ? camel(field.wire) : key;
    const raw = clientDoc[wire];
    const wrote = prior?.spec[key] ?? desired?.[key];
    const unset = typeof raw === 'string' && UNSET_FORMS.includes(raw);
    if (unset && (wrote === null || wrote === undefined)) { fields[key] = null; continue; }
    if (raw !== undefined && !unset) continue;
    delete fields[key];
    const asked = desired?.[key];
    if (asked !== undefined && asked !== null && (!prior || JSON.stringify(prior.spec[key]) !== JSON.stringify(asked))) {
      notes.push(`${key}: the server does not keep this field (it ${unset ? `answers it as ${JSON.stringify(raw)}` : 'never returns it'}); `
        + 'converge sends it and compares it with what the last apply wrote');
    }
  }
  return notes;
}

/**
 * The server id an update or delete names, for an id in state. A server id (`prj-…`, `ws-…`, `team-…`) is the one
 * the plan read: it is written to as it is, with no second read. The platform never gives an id to another object,
 * so an object deleted and made again under the same name since the plan is not reached: the API answers 404 for
 * the old id. Only `<organization>/<name>` (an import or a lookup kept that spelling) is resolved by name.
 */
export async function serverIdOf(id: string, resolveByName: (organization: string, name: string) => Promise<string | undefined>): Promise<string | undefined> {
  const named = orgAndName(id);
  return named ? resolveByName(named.organization, named.name) : id;
}

/**
 * An update's 404 for the id the plan read: the object was deleted outside converge since the plan (perhaps made
 * again under the same name, which is another object and is left alone). Other errors are returned as they are.
 */
export function goneSincePlan(e: unknown, what: string): unknown {
  if (!(e instanceof ApiError && e.status === 404)) return e;
  return new ApiError(e.status, e.apiMessages, e.method, e.path, e.api, e.constructPath, e.tokenVariable, {
    retryable: false,
    hint: `the ${what} the plan read is gone: deleted outside converge since the plan; one of the same name made since is another ${what}, left alone. Run plan again`,
  });
}
