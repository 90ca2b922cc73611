import { KindSchema } from '../../core/schema';

/** A policy name as the mesh accepts it. */
export const ACL_POLICY_NAME = /^[A-Za-z0-9\-_]{1,128}(\/[A-Za-z0-9\-_]{1,128})?$/;

/**
 * `mesh.AclPolicy`: an ACL policy (`/v1/acl/policy`), identified by its server-assigned `ID`, renamed
 * and changed in place (a write replaces every field).
 */
export const ACL_POLICY: KindSchema = {
  kind: 'mesh.AclPolicy',
  api: 'mesh',
  wireCase: 'pascal',
  fields: {
    name: {
      type: 'string', required: true, pattern: ACL_POLICY_NAME,
      patternRule: "may hold only letters, digits, '-', '_' and a single '/', 128 characters a part at most",
    },
    description: { type: 'string', default: '' },
    rules: { type: 'string', default: '' },
    datacenters: { type: 'string-list', default: [] },
  },
  outputs: {
    id: { type: 'string' },
    modifyIndex: { type: 'number' },
  },
};
