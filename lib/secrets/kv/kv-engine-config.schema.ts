import { KindSchema } from '../../core/schema';
import { KV_VERSION_SETTINGS } from './kv-secret.schema';
import { mountField } from '../shared/engine-fields';

/** `secrets.KvEngineConfig`: the spec's `{kv_mount}/config` body. */
export const KV_ENGINE_CONFIG: KindSchema = {
  kind: 'secrets.KvEngineConfig',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('secret'),
    ...KV_VERSION_SETTINGS,
  },
};
