import { KindSchema } from '../../core/schema';
import { LEASE_OUTPUTS } from '../shared/lease';
import { SEGMENT_NAME_FIELD, mountField } from '../shared/engine-fields';

/**
 * `secrets.PlatformTokenCredentials`: `GET {mount}/creds/<role>`. The token is a secret (encrypted in
 * state, masked everywhere); user roles answer it with a lease, organization and team roles without.
 */
export const PLATFORM_TOKEN_CREDENTIALS: KindSchema = {
  kind: 'secrets.PlatformTokenCredentials',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('platform'),
    role: SEGMENT_NAME_FIELD,
  },
  outputs: {
    token: { type: 'string', sensitive: true },
    tokenId: { type: 'string' },
    organization: { type: 'string' },
    teamId: { type: 'string' },
    ...LEASE_OUTPUTS,
  },
};
