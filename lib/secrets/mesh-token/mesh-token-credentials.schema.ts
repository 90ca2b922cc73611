import { KindSchema } from '../../core/schema';
import { LEASE_OUTPUTS } from '../shared/lease';
import { SEGMENT_NAME_FIELD, mountField } from '../shared/engine-fields';

/**
 * `secrets.MeshTokenCredentials`: `GET {mount}/creds/<role>`, a new mesh token under a lease. The token
 * is a secret (encrypted in state, masked everywhere); its accessor names it without granting anything.
 */
export const MESH_TOKEN_CREDENTIALS: KindSchema = {
  kind: 'secrets.MeshTokenCredentials',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('mesh'),
    role: SEGMENT_NAME_FIELD,
  },
  outputs: {
    token: { type: 'string', sensitive: true },
    accessor: { type: 'string' },
    local: { type: 'boolean' },
    meshNamespace: { type: 'string' },
    partition: { type: 'string' },
    ...LEASE_OUTPUTS,
  },
};
