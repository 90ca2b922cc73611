import { FieldsSchema, KindSchema } from '../../core/schema';
import { KV_PATH_FIELD, mountField } from '../shared/engine-fields';

/**
 * The version settings a KV engine's configuration and each key's metadata share (the key's own
 * override the engine's): the spec's `max_versions`, `cas_required`, `delete_version_after`.
 */
export const KV_VERSION_SETTINGS: FieldsSchema = {
  maxVersions: { type: 'integer', min: 0, default: 0 },
  casRequired: { type: 'boolean', default: false },
  deleteVersionAfter: { type: 'duration', min: 0, default: '0s' },
};

/**
 * `secrets.KvSecret`: a key of a KV version 2 engine, written through two bodies of the spec: the
 * version (`{mount}/data/<path>`: `data`) and the key metadata (`{mount}/metadata/<path>`).
 */
export const KV_SECRET: KindSchema = {
  kind: 'secrets.KvSecret',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('secret'),
    path: KV_PATH_FIELD,
    /** Values: strings, numbers, booleans, secrets, references (`checkKvData`); masked as a whole. */
    data: { type: 'json', required: true, sensitive: true },
    customMetadata: { type: 'string-map', default: {} },
    ...KV_VERSION_SETTINGS,
  },
  outputs: {
    version: { type: 'number' },
  },
  unmanaged: {
    options: '`options.cas`: the check-and-set version the handler sends from the version it read, not a setting',
  },
};
