/**
 * The lifecycle of `mesh.AclRole`: a named ACL object (identity the server's `ID`, found by its unique
 * name after a crash; see named-acl-object.handler.ts). Its policies go by name.
 */
import { Spec } from '../../core/engine/handler';
import { fromWire, toWire } from '../../core/schema';
import { namedAclObjectHandler } from './named-acl-object.handler';
import { AclRoleBody, AclRoleJson, MeshAclRoles } from './acl-role-client';
import { ACL_ROLE, ACL_ROLE_NAME } from './acl-role.schema';

export const aclRoleHandler = namedAclObjectHandler<AclRoleJson, AclRoleBody>({
  schema: ACL_ROLE,
  noun: 'role',
  namePattern: ACL_ROLE_NAME,
  destroyWarning: 'tokens that hold this role lose what its policies and identities grant',
  collection: (ctx) => new MeshAclRoles(ctx.http),
  // acl/roles answers each role whole (checked against Consul 1.16): one list for a plan's roles.
  wholeList: (ctx) => new MeshAclRoles(ctx.http).list(ctx.address),
  fieldsOf: (r) => fromWire(ACL_ROLE, ACL_ROLE.fields, { ...r, Policies: (r.Policies ?? []).map((p) => p.Name ?? p.ID) } as unknown as Record<string, unknown>),
  // Policies by name; what is empty left out.
  bodyOf: (spec: Spec) => ({ ...(toWire(ACL_ROLE, ACL_ROLE.fields, spec) as Record<string, unknown>),
    Policies: (spec.policies as string[] ?? []).map((Name) => ({ Name })) }) as unknown as AclRoleBody,
});
