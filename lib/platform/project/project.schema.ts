import { KindSchema } from '../../core/schema';
import { ORGANIZATION_FIELD } from '../shared/references';

/** A project name as the platform takes it: 3 to 40 letters, numbers, inner spaces, `-` and `_`. */
export const PROJECT_NAME_RULE = {
  pattern: /^[A-Za-z0-9_-][A-Za-z0-9 _-]{1,38}[A-Za-z0-9_-]$/,
  patternRule: "must be 3 to 40 characters: letters, numbers, inner spaces, '-' and '_'",
} as const;

/**
 * `platform.Project`: the real platform's create/update body (go-tfe's `ProjectCreateOptions`),
 * camelCased; renamed in place, moved to another organization by replacement.
 */
export const PROJECT: KindSchema = {
  kind: 'platform.Project',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: ORGANIZATION_FIELD,
    name: { type: 'string', required: true, ...PROJECT_NAME_RULE },
    description: { type: 'string', default: '' },
  },
  outputs: {
    id: { type: 'string' },
  },
};
