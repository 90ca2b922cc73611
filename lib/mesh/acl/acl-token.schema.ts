import { KindSchema } from '../../core/schema';
import { ACL_ROLE } from './acl-role.schema';

/**
 * `mesh.AclToken`: an ACL token (`/v1/acl/token`), identified by its `AccessorID`. The server generates
 * the `SecretID`; converge never keeps it (not in state, plan or output): read it with the accessor
 * where it is needed. `local` cannot change: a change replaces the token.
 */
export const ACL_TOKEN: KindSchema = {
  kind: 'mesh.AclToken',
  api: 'mesh',
  wireCase: 'pascal',
  fields: {
    description: { type: 'string', default: '' },
    policies: { type: 'string-set', default: [] },
    roles: { type: 'string-set', default: [] },
    serviceIdentities: ACL_ROLE.fields.serviceIdentities,
    nodeIdentities: ACL_ROLE.fields.nodeIdentities,
    local: { type: 'boolean', default: false, replace: true },
  },
  outputs: {
    accessorId: { type: 'string' },
    modifyIndex: { type: 'number' },
  },
};
