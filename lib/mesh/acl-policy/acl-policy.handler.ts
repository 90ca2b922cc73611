/**
 * The lifecycle of `mesh.AclPolicy`. Identity is the policy's `ID` (a UUID the server assigns); an
 * import may name the policy instead, resolved on read. After a crash between create and record,
 * the policy is found by its name (unique on the server).
 */
import { Candidate, HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { fromWire, resourceMetadata, toWire } from '../../core/schema';
import { AclPolicyBody, AclPolicyJson, MeshAclPolicies } from '../client/acl-policies';
import { ACL_POLICY, ACL_POLICY_NAME } from './acl-policy.schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function policies(ctx: HandlerContext): MeshAclPolicies {
  return new MeshAclPolicies(ctx.http);
}

function observedOf(p: AclPolicyJson): Observed {
  return {
    fields: fromWire(ACL_POLICY, ACL_POLICY.fields, { ...p, Datacenters: p.Datacenters ?? [] } as unknown as Record<string, unknown>),
    outputs: { id: p.ID, modifyIndex: p.ModifyIndex ?? 0 },
    id: p.ID,
  };
}

function bodyOf(spec: Spec): AclPolicyBody {
  return toWire(ACL_POLICY, ACL_POLICY.fields, spec) as unknown as AclPolicyBody;
}

/** The policy an id in state names: a UUID, or a name from an import. */
async function lookup(ctx: HandlerContext, id: string): Promise<AclPolicyJson | undefined> {
  return UUID.test(id) ? policies(ctx).read(id, ctx.address) : policies(ctx).readByName(id, ctx.address);
}

export const aclPolicyHandler: ResourceHandler = {
  ...resourceMetadata(ACL_POLICY),
  destroyWarning: 'tokens and roles that hold this policy lose what it grants',

  naturalId(): undefined {
    return undefined;
  },

  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    const p = await policies(ctx).readByName(String(spec.name), ctx.address);
    return p ? [{ id: p.ID }] : [];
  },

  importId(id: string): string {
    if (UUID.test(id) || ACL_POLICY_NAME.test(id)) return id;
    throw new Error(`ACL policy import id "${id}" must be the policy's ID (a UUID) or its name`);
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const p = await lookup(ctx, id);
    return p ? observedOf(p) : undefined;
  },

  async create(ctx, spec): Promise<Written> {
    const p = await policies(ctx).create(bodyOf(spec), ctx.address);
    return { id: p.ID, outputs: { id: p.ID, modifyIndex: p.ModifyIndex ?? 0 } };
  },

  async update(ctx, id, spec): Promise<Written> {
    const resolved = UUID.test(id) ? id : (await lookup(ctx, id))?.ID ?? id;
    const p = await policies(ctx).update(resolved, bodyOf(spec), ctx.address);
    return { id: p.ID, outputs: { id: p.ID, modifyIndex: p.ModifyIndex ?? 0 } };
  },

  async delete(ctx, id): Promise<void> {
    const resolved = UUID.test(id) ? id : (await lookup(ctx, id))?.ID;
    if (resolved) await policies(ctx).delete(resolved, ctx.address);
  },

  outputsChangedByUpdate: ['modifyIndex'],
};
