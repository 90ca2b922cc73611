import { FieldsSchema, KindSchema } from '../../core/schema';
import { KV_PATH_FIELD, mountField } from '../shared/engine-fields';

/** What a read of a KV secret names: the mount, the path and the version (query `version`; 0: the current one). */
export const KV_READ_FIELDS: FieldsSchema = {
  mount: mountField('secret'),
  path: KV_PATH_FIELD,
  version: { type: 'integer', min: 0, default: 0 },
};

/** `secrets.KvSecretData`: a read of `{kv_mount}/data/<path>` (query `version`) and what it answers. */
export const KV_SECRET_DATA: KindSchema = {
  kind: 'secrets.KvSecretData',
  api: 'secrets',
  wireCase: 'snake',
  fields: KV_READ_FIELDS,
  outputs: {
    data: { type: 'json', sensitive: true },
    version: { type: 'number' },
    createdTime: { type: 'string' },
    customMetadata: { type: 'json' },
  },
};
