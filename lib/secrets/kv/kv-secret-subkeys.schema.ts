import { KindSchema } from '../../core/schema';
import { KV_READ_FIELDS } from './kv-secret-data.schema';

/** `secrets.KvSecretSubkeys`: a read of `{kv_mount}/subkeys/<path>` (query `version`, `depth`) and what it answers. */
export const KV_SECRET_SUBKEYS: KindSchema = {
  kind: 'secrets.KvSecretSubkeys',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    ...KV_READ_FIELDS,
    depth: { type: 'integer', min: 0, default: 0 },
  },
  outputs: {
    subkeys: { type: 'json' },
    keys: { type: 'json' },
    version: { type: 'number' },
  },
};
