/**
 * The lifecycle both `mesh.AclPolicy` and `mesh.AclRole` follow: identity is the `ID` (a UUID the server
 * assigns); an import may name the object instead, resolved on read; after a crash between create and
 * record, the object is found by its name (unique on the server). Only the wire shapes differ.
 */
import { Candidate, HandlerContext, Observed, PrefetchWant, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { KindSchema, resourceMetadata } from '../../core/schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Answers the objects a plan wants from one list of the whole collection, when two or more are wanted
 * (one is cheaper read alone in a big account). An id is the object's ID (a UUID), or, for an import,
 * its name (`nameOf`). The list needs `acl:read` as a read does, and answers all or nothing: what it
 * leaves out is absent. Refused, it says nothing: each object is then read alone, with its own error.
 */
export async function prefetchFromList<J>(wanted: readonly PrefetchWant[], list: () => Promise<J[]>, idOf: (j: J) => string,
  nameOf: ((j: J) => string) | undefined, observe: (j: J) => Observed): Promise<Map<string, Observed | null>> {
  const known = new Map<string, Observed | null>();
  if (wanted.length < 2) return known;
  let listed: J[];
  try {
    listed = await list();
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return known;
    throw e;
  }
  const byId = new Map(listed.map((j) => [idOf(j), j]));
  const byName = nameOf ? new Map(listed.map((j) => [nameOf(j), j])) : undefined;
  for (const w of wanted) {
    if (!UUID.test(w.id) && !byName) continue;
    const j = UUID.test(w.id) ? byId.get(w.id) : byName!.get(w.id);
    known.set(w.id, j ? observe(j) : null);
  }
  return known;
}

/** What the server answers for one object: its ID and the index of its last change. */
interface AclObject { readonly ID: string; readonly Name: string; readonly ModifyIndex?: number }

/** The client calls of one ACL collection (`acl/policy`, `acl/role`). */
export interface AclCollection<J extends AclObject, B> {
  read(id: string, constructPath?: string): Promise<J | undefined>;
  readByName(name: string, constructPath?: string): Promise<J | undefined>;
  create(body: B, constructPath?: string): Promise<J>;
  update(id: string, body: B, constructPath?: string): Promise<J>;
  delete(id: string, constructPath?: string): Promise<void>;
}

export interface NamedAclObject<J extends AclObject, B> {
  readonly schema: KindSchema;
  /** `policy`, `role`: in the import id's error. */
  readonly noun: string;
  /** A name the server accepts (an import may name the object). */
  readonly namePattern: RegExp;
  readonly destroyWarning: string;
  readonly collection: (ctx: HandlerContext) => AclCollection<J, B>;
  /** The object's fields as the schema reads them. */
  readonly fieldsOf: (answer: J) => Record<string, unknown>;
  readonly bodyOf: (spec: Spec) => B;
  /**
   * Every object, each as whole as a read answers it, for a plan's prefetch; undefined where the list
   * leaves out a compared field (AclPolicy's `Rules`): each object is then read alone.
   */
  readonly wholeList?: (ctx: HandlerContext) => Promise<J[]>;
}

/** One handler per kind, written once. */
export function namedAclObjectHandler<J extends AclObject, B>(k: NamedAclObject<J, B>): ResourceHandler {
  const lookup = (ctx: HandlerContext, id: string) => (UUID.test(id) ? k.collection(ctx).read(id, ctx.address) : k.collection(ctx).readByName(id, ctx.address));
  const written = (j: J): Written => ({ id: j.ID, outputs: { id: j.ID, modifyIndex: j.ModifyIndex ?? 0 } });
  const observed = (j: J): Observed => ({ fields: k.fieldsOf(j), outputs: written(j).outputs, id: j.ID });
  return {
    ...resourceMetadata(k.schema),
    destroyWarning: k.destroyWarning,
    outputsChangedByUpdate: ['modifyIndex'],
    naturalId: () => undefined,
    uniqueFindKey: true,

    async find(ctx, spec): Promise<Candidate[]> {
      const j = await k.collection(ctx).readByName(String(spec.name), ctx.address);
      return j ? [{ id: j.ID }] : [];
    },

    importId(id: string): string {
      if (UUID.test(id) || k.namePattern.test(id)) return id;
      throw new Error(`ACL ${k.noun} import id "${id}" must be the ${k.noun}'s ID (a UUID) or its name`);
    },

    async read(ctx, id): Promise<Observed | undefined> {
      const j = await lookup(ctx, id);
      return j ? observed(j) : undefined;
    },

    async prefetch(ctx, wanted) {
      if (!k.wholeList) return new Map();
      return prefetchFromList(wanted, () => k.wholeList!(ctx), (j) => j.ID, (j) => j.Name, observed);
    },

    async create(ctx, spec): Promise<Written> {
      return written(await k.collection(ctx).create(k.bodyOf(spec), ctx.address));
    },

    async update(ctx, id, spec): Promise<Written> {
      const resolved = UUID.test(id) ? id : (await lookup(ctx, id))?.ID ?? id;
      return written(await k.collection(ctx).update(resolved, k.bodyOf(spec), ctx.address));
    },

    async delete(ctx, id): Promise<void> {
      const resolved = UUID.test(id) ? id : (await lookup(ctx, id))?.ID;
      if (resolved) await k.collection(ctx).delete(resolved, ctx.address);
    },
  };
}
