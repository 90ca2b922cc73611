import { isSet, setOnly } from '../../core/migrate/mapping-util';
import { ConstructRef, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { ACL_TOKEN } from '../acl/acl-token.schema';

/**
 * `consul_acl_token` -> `mesh.AclToken`, imported by its `accessor_id`. The provider never keeps the
 * token's SecretID in the state (only the `consul_acl_token_secret_id` data source reads it), and the
 * construct has no SecretID prop: the imported token keeps the secret the server holds, so no secret
 * reaches the code. Policies and roles are named by name in the state, as the construct names them: a
 * policy or role the state also holds becomes its construct's `policyName` / `roleName`.
 */
export const CONSUL_ACL_TOKEN: TerraformMapping = {
  type: 'consul_acl_token',
  order: 2,
  map(r, ctx) {
    const v = r.values;
    if (isSet(v.partition) && v.partition !== 'default') return { skip: `admin partition "${v.partition}" (enterprise) is not expressed` };
    if (isSet(v.namespace) && v.namespace !== 'default') return { skip: `namespace "${v.namespace}" (enterprise) is not expressed` };
    if (isSet(v.templated_policies)) return { skip: 'templated_policies has no AclToken prop' };
    if (isSet(v.expiration_time)) return { skip: 'expiration_time has no AclToken prop' };
    const accessorId = String(v.accessor_id ?? v.id ?? '');
    if (!accessorId) return { skip: 'no accessor_id in the state' };
    const byName = (type: string, attr: string) => (name: string): string | ConstructRef => {
      const found = ctx.find(type, { name });
      return found ? new ConstructRef(found.address, attr) : name;
    };
    const policies = ((v.policies as string[] | null) ?? []).map(byName('consul_acl_policy', 'policyName'));
    const roles = ((v.roles as string[] | null) ?? []).map(byName('consul_acl_role', 'roleName'));
    const services = ((v.service_identities as Record<string, unknown>[] | null) ?? [])
      .map((s) => setOnly({ serviceName: s.service_name, datacenters: s.datacenters }));
    const nodes = ((v.node_identities as Record<string, unknown>[] | null) ?? []).map((n) => ({ nodeName: n.node_name, datacenter: n.datacenter }));
    return {
      kind: ACL_TOKEN.kind,
      className: 'mesh.AclToken',
      importId: accessorId,
      props: setOnly({
        description: v.description, policies, roles, serviceIdentities: services, nodeIdentities: nodes,
        // `local: false` is the default: written only when the token is local.
        local: v.local === true ? true : undefined,
      }),
    };
  },
};
