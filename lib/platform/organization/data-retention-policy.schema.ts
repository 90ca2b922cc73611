import { KindSchema } from '../../core/schema';
import { ORGANIZATION_FIELD } from '../shared/references';

/**
 * `platform.DataRetentionPolicy` (self-hosted edition): the spec shows no body; the real platform's
 * (REAL-SYSTEMS.md) is of type `data-retention-policy-delete-olders` with `delete-older-than-n-days`,
 * or `data-retention-policy-dont-deletes` without attributes (null: never delete).
 */
export const DATA_RETENTION_POLICY: KindSchema = {
  kind: 'platform.DataRetentionPolicy',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: ORGANIZATION_FIELD,
    deleteOlderThanNDays: { type: 'integer', min: 1, default: null },
  },
  outputs: {
    id: { type: 'string' },
    type: { type: 'string' },
  },
};
