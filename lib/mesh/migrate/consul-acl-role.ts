import { isSet, setOnly } from '../../core/migrate/mapping-util';
import { ConstructRef, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { ACL_ROLE } from '../acl/acl-role.schema';

/**
 * `consul_acl_role` -> `mesh.AclRole`, imported by its name. The state names its policies by ID; the
 * role names them by name: each becomes the `policyName` of the policy's construct.
 */
export const CONSUL_ACL_ROLE: TerraformMapping = {
  type: 'consul_acl_role',
  order: 1,
  map(r, ctx) {
    const v = r.values;
    if (isSet(v.partition) && v.partition !== 'default') return { skip: `admin partition "${v.partition}" (enterprise) is not expressed` };
    if (isSet(v.namespace) && v.namespace !== 'default') return { skip: `namespace "${v.namespace}" (enterprise) is not expressed` };
    if (isSet(v.templated_policy)) return { skip: 'templated_policy has no AclRole prop' };
    const policies: ConstructRef[] = [];
    for (const id of (v.policies as string[] | null) ?? []) {
      const p = ctx.find('consul_acl_policy', { id });
      if (!p) return { skip: `its policy ${id} is not in the state (the role names its policies by name)` };
      policies.push(new ConstructRef(p.address, 'policyName'));
    }
    const services = ((v.service_identities as Record<string, unknown>[] | null) ?? [])
      .map((s) => setOnly({ serviceName: s.service_name, datacenters: s.datacenters }));
    const nodes = ((v.node_identities as Record<string, unknown>[] | null) ?? []).map((n) => ({ nodeName: n.node_name, datacenter: n.datacenter }));
    return {
      kind: ACL_ROLE.kind,
      className: 'mesh.AclRole',
      importId: String(v.name),
      props: setOnly({ name: v.name, description: v.description, policies, serviceIdentities: services, nodeIdentities: nodes }),
    };
  },
};
