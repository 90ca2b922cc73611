import { KindSchema } from '../../core/schema';
import { SEGMENT_NAME_FIELD, mountField } from '../shared/engine-fields';

/** `secrets.PlatformTokenRole`: the body of `POST {mount}/role/<name>`, camelCased. */
export const PLATFORM_TOKEN_ROLE: KindSchema = {
  kind: 'secrets.PlatformTokenRole',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('platform'),
    name: SEGMENT_NAME_FIELD,
    organization: { type: 'string', default: '' },
    teamId: { type: 'string', default: '' },
    userId: { type: 'string', default: '' },
    ttl: { type: 'duration', default: '0s' },
    maxTtl: { type: 'duration', default: '0s' },
  },
};
