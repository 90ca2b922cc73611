/**
 * The lifecycle of `mesh.AclRole`. Identity is the role's `ID` (a UUID the server assigns); an import
 * may name the role instead, resolved on read. After a crash, the role is found by its (unique) name.
 */
import { Candidate, HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { fromWire, resourceMetadata, toWire } from '../../core/schema';
import { AclRoleBody, AclRoleJson, MeshAclRoles } from '../client/acl-roles';
import { ACL_ROLE, ACL_ROLE_NAME } from './acl-role.schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function roles(ctx: HandlerContext): MeshAclRoles {
  return new MeshAclRoles(ctx.http);
}

function observedOf(r: AclRoleJson): Observed {
  const wire = { ...r, Policies: (r.Policies ?? []).map((p) => p.Name ?? p.ID) } as unknown as Record<string, unknown>;
  return { fields: fromWire(ACL_ROLE, ACL_ROLE.fields, wire), outputs: { id: r.ID, modifyIndex: r.ModifyIndex ?? 0 }, id: r.ID };
}

/** The role's body: policies by name; what is empty left out. */
function bodyOf(spec: Spec): AclRoleBody {
  const wire = toWire(ACL_ROLE, ACL_ROLE.fields, spec) as Record<string, unknown>;
  return { ...wire, Policies: (spec.policies as string[] ?? []).map((Name) => ({ Name })) } as unknown as AclRoleBody;
}

async function lookup(ctx: HandlerContext, id: string): Promise<AclRoleJson | undefined> {
  return UUID.test(id) ? roles(ctx).read(id, ctx.address) : roles(ctx).readByName(id, ctx.address);
}

export const aclRoleHandler: ResourceHandler = {
  ...resourceMetadata(ACL_ROLE),
  destroyWarning: 'tokens that hold this role lose what its policies and identities grant',
  outputsChangedByUpdate: ['modifyIndex'],

  naturalId(): undefined {
    return undefined;
  },

  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    const r = await roles(ctx).readByName(String(spec.name), ctx.address);
    return r ? [{ id: r.ID }] : [];
  },

  importId(id: string): string {
    if (UUID.test(id) || ACL_ROLE_NAME.test(id)) return id;
    throw new Error(`ACL role import id "${id}" must be the role's ID (a UUID) or its name`);
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const r = await lookup(ctx, id);
    return r ? observedOf(r) : undefined;
  },

  async create(ctx, spec): Promise<Written> {
    const r = await roles(ctx).create(bodyOf(spec), ctx.address);
    return { id: r.ID, outputs: { id: r.ID, modifyIndex: r.ModifyIndex ?? 0 } };
  },

  async update(ctx, id, spec): Promise<Written> {
    const resolved = UUID.test(id) ? id : (await lookup(ctx, id))?.ID ?? id;
    const r = await roles(ctx).update(resolved, bodyOf(spec), ctx.address);
    return { id: r.ID, outputs: { id: r.ID, modifyIndex: r.ModifyIndex ?? 0 } };
  },

  async delete(ctx, id): Promise<void> {
    const resolved = UUID.test(id) ? id : (await lookup(ctx, id))?.ID;
    if (resolved) await roles(ctx).delete(resolved, ctx.address);
  },
};
