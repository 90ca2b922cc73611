/**
 * The lifecycle of `mesh.AclPolicy`: a named ACL object (identity the server's `ID`, found by its unique
 * name after a crash; see named-acl-object.handler.ts). Datacenters the server leaves out are none.
 */
import { Spec } from '../../core/engine/handler';
import { fromWire, toWire } from '../../core/schema';
import { AclPolicyBody, AclPolicyJson, MeshAclPolicies } from './acl-policy-client';
import { ACL_POLICY, ACL_POLICY_NAME } from './acl-policy.schema';
import { namedAclObjectHandler } from './named-acl-object.handler';

export const aclPolicyHandler = namedAclObjectHandler<AclPolicyJson, AclPolicyBody>({
  schema: ACL_POLICY,
  noun: 'policy',
  namePattern: ACL_POLICY_NAME,
  destroyWarning: 'tokens and roles that hold this policy lose what it grants',
  collection: (ctx) => new MeshAclPolicies(ctx.http),
  fieldsOf: (p) => fromWire(ACL_POLICY, ACL_POLICY.fields, { ...p, Datacenters: p.Datacenters ?? [] } as unknown as Record<string, unknown>),
  bodyOf: (spec: Spec) => toWire(ACL_POLICY, ACL_POLICY.fields, spec) as unknown as AclPolicyBody,
});
