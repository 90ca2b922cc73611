import { KindSchema } from '../../core/schema';
import { KV_PATH_FIELD, mountField } from './kv-validation';

/** `secrets.KvSecretData`: a read of `{kv_mount}/data/<path>` (query `version`) and what it answers. */
export const KV_SECRET_DATA: KindSchema = {
  kind: 'secrets.KvSecretData',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('secret'),
    path: KV_PATH_FIELD,
    version: { type: 'integer', min: 0, default: 0 },
  },
  outputs: {
    data: { type: 'json', sensitive: true },
    version: { type: 'number' },
    createdTime: { type: 'string' },
    customMetadata: { type: 'json' },
  },
};
