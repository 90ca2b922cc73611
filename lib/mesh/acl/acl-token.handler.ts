/**
 * The lifecycle of `mesh.AclToken`. Identity is the `AccessorID`. The `SecretID` every answer carries
 * is dropped where the answer is read: it reaches neither state nor outputs. After a crash between
 * create and record, a token with the same description created since the intent is adopted when it
 * is the only one.
 */
import { Candidate, HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { fromWire, resourceMetadata, toWire } from '../../core/schema';
import { AclTokenBody, AclTokenJson, MeshAclTokens } from './acl-token-client';
import { ACL_TOKEN } from './acl-token.schema';
import { prefetchFromList } from './named-acl-object.handler';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function tokens(ctx: HandlerContext): MeshAclTokens {
  return new MeshAclTokens(ctx.http);
}

function observedOf(t: AclTokenJson): Observed {
  const { SecretID: _secret, ...rest } = t;
  const wire = { ...rest, Policies: (t.Policies ?? []).map((p) => p.Name ?? p.ID), Roles: (t.Roles ?? []).map((r) => r.Name ?? r.ID) };
  return { fields: fromWire(ACL_TOKEN, ACL_TOKEN.fields, wire as unknown as Record<string, unknown>), outputs: outputsOf(t), id: t.AccessorID };
}

function outputsOf(t: AclTokenJson): Record<string, unknown> {
  return { accessorId: t.AccessorID, modifyIndex: t.ModifyIndex ?? 0 };
}

function bodyOf(spec: Spec): AclTokenBody {
  const wire = toWire(ACL_TOKEN, ACL_TOKEN.fields, spec) as Record<string, unknown>;
  return {
    ...wire,
    Policies: (spec.policies as string[] ?? []).map((Name) => ({ Name })),
    Roles: (spec.roles as string[] ?? []).map((Name) => ({ Name })),
  } as unknown as AclTokenBody;
}

export const aclTokenHandler: ResourceHandler = {
  ...resourceMetadata(ACL_TOKEN),
  destroyWarning: 'whoever uses this token loses access at once',
  outputsChangedByUpdate: ['modifyIndex'],

  naturalId(): undefined {
    return undefined;
  },

  async find(ctx, spec): Promise<Candidate[]> {
    const all = await tokens(ctx).list(ctx.address);
    return all.filter((t) => (t.Description ?? '') === String(spec.description ?? '')).map((t) => ({ id: t.AccessorID, createdAt: t.CreateTime }));
  },

  importId(id: string): string {
    if (UUID.test(id)) return id;
    throw new Error(`ACL token import id "${id}" must be the token's AccessorID (a UUID; never its SecretID)`);
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const t = await tokens(ctx).read(id, ctx.address);
    return t ? observedOf(t) : undefined;
  },

  // acl/tokens answers each token's description, links, identities and locality as a read does (checked
  // against Consul 1.16; its SecretID too, dropped by observedOf): one list for a plan's tokens.
  async prefetch(ctx, wanted) {
    return prefetchFromList(wanted, () => tokens(ctx).list(ctx.address), (t) => t.AccessorID, undefined, observedOf);
  },

  async create(ctx, spec): Promise<Written> {
    const t = await tokens(ctx).create(bodyOf(spec), ctx.address);
    return { id: t.AccessorID, outputs: outputsOf(t) };
  },

  async update(ctx, id, spec): Promise<Written> {
    const t = await tokens(ctx).update(id, bodyOf(spec), ctx.address);
    return { id: t.AccessorID, outputs: outputsOf(t) };
  },

  async delete(ctx, id): Promise<void> {
    await tokens(ctx).delete(id, ctx.address);
  },
};
