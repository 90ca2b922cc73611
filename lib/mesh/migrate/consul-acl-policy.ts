import { isSet, setOnly } from '../../core/migrate/mapping-util';
import { TerraformMapping } from '../../core/migrate/terraform-mapping';
import { ACL_POLICY } from '../acl/acl-policy.schema';

/** `consul_acl_policy` -> `mesh.AclPolicy`, imported by its name (its ID is the server's, resolved on read). */
export const CONSUL_ACL_POLICY: TerraformMapping = {
  type: 'consul_acl_policy',
  order: 0,
  map(r) {
    const v = r.values;
    if (isSet(v.partition) && v.partition !== 'default') return { skip: `admin partition "${v.partition}" (enterprise) is not expressed` };
    if (isSet(v.namespace) && v.namespace !== 'default') return { skip: `namespace "${v.namespace}" (enterprise) is not expressed` };
    return {
      kind: ACL_POLICY.kind,
      className: 'mesh.AclPolicy',
      importId: String(v.name),
      props: setOnly({ name: v.name, description: v.description, rules: v.rules, datacenters: v.datacenters }),
    };
  },
};
