/**
 * The lifecycle both `mesh.AclPolicy` and `mesh.AclRole` follow: identity is the `ID` (a UUID the server
 * assigns); an import may name the object instead, resolved on read; after a crash between create and
 * record, the object is found by its name (unique on the server). Only the wire shapes differ.
 */
import { Candidate, HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { KindSchema, resourceMetadata } from '../../core/schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the server answers for one object: its ID and the index of its last change. */
interface AclObject { readonly ID: string; readonly ModifyIndex?: number }

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
}

/** One handler per kind, written once. */
export function namedAclObjectHandler<J extends AclObject, B>(k: NamedAclObject<J, B>): ResourceHandler {
  const lookup = (ctx: HandlerContext, id: string) => (UUID.test(id) ? k.collection(ctx).read(id, ctx.address) : k.collection(ctx).readByName(id, ctx.address));
  const written = (j: J): Written => ({ id: j.ID, outputs: { id: j.ID, modifyIndex: j.ModifyIndex ?? 0 } });
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
      return j ? { fields: k.fieldsOf(j), outputs: written(j).outputs, id: j.ID } : undefined;
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
