import { KindSchema } from '../../core/schema';
import { NAME_RULE } from '../shared/references';

/** `platform.ModuleProducers` (self-hosted edition): the organizations that produce modules for an organization. */
export const MODULE_PRODUCERS: KindSchema = {
  kind: 'platform.ModuleProducers',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: { type: 'string', required: true, ...NAME_RULE },
  },
  outputs: {
    /** Each producer: `{ name, externalId }`. */
    producers: { type: 'json' },
    names: { type: 'json' },
  },
};
