import { KindSchema } from '../../core/schema';
import { mountField, SEGMENT_NAME_FIELD } from '../prop-checks';

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
    leaseId: { type: 'string' },
    leaseDuration: { type: 'number' },
    leaseStartTime: { type: 'string' },
    renewable: { type: 'boolean' },
  },
};
