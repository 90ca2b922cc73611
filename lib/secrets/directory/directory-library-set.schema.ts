import { KindSchema } from '../../core/schema';
import { mountField, SEGMENT_NAME_FIELD } from '../shared/engine-fields';

/**
 * `secrets.DirectoryLibrarySet` (`{mount}/library/<name>`): the spec's library set parameters (the
 * body repeats the name).
 */
export const DIRECTORY_LIBRARY_SET: KindSchema = {
  kind: 'secrets.DirectoryLibrarySet',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('directory'),
    name: { ...SEGMENT_NAME_FIELD, local: false },
    serviceAccountNames: {
      type: 'string-set', required: true, pattern: /^[^,]+$/, patternRule: 'must be a non-empty name without ","',
    },
    ttl: { type: 'duration', default: '24h' },
    maxTtl: { type: 'duration', default: '24h' },
    disableCheckInEnforcement: { type: 'boolean', default: false },
  },
};
