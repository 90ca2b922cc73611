import { KindSchema } from '../../core/schema';

/** A role name as the mesh accepts it. */
export const ACL_ROLE_NAME = /^[A-Za-z0-9\-_]{1,256}$/;

/**
 * `mesh.AclRole`: an ACL role (`/v1/acl/role`), identified by its server-assigned `ID`. Policies are
 * named (the server answers each with its ID and name; the spec keeps the names, sorted).
 */
export const ACL_ROLE: KindSchema = {
  kind: 'mesh.AclRole',
  api: 'mesh',
  wireCase: 'pascal',
  fields: {
    name: { type: 'string', required: true, pattern: ACL_ROLE_NAME, patternRule: "may hold only letters, digits, '-' and '_' (256 at most)" },
    description: { type: 'string', default: '' },
    policies: { type: 'string-set', default: [] },
    serviceIdentities: {
      type: 'object-list', default: [],
      fields: {
        serviceName: {
          type: 'string', required: true, pattern: /^[a-z0-9]([a-z0-9\-_]*[a-z0-9])?$/,
          patternRule: "may hold only lower case letters, digits, '-' and '_'",
        },
        datacenters: { type: 'string-list', default: [] },
      },
    },
    nodeIdentities: {
      type: 'object-list', default: [],
      fields: { nodeName: { type: 'string', required: true, pattern: /./, patternRule: 'must not be empty' }, datacenter: { type: 'string', required: true, pattern: /./, patternRule: 'must not be empty' } },
    },
  },
  outputs: {
    id: { type: 'string' },
    modifyIndex: { type: 'number' },
  },
};
