import { KindSchema } from '../../core/schema';
import { mountField, NON_EMPTY, SEGMENT_NAME_FIELD } from '../shared/engine-fields';

/**
 * `secrets.DirectoryRole` (`{mount}/roles/<name>`): the spec's role parameters. Without a `ttl` the
 * role follows the configuration's, which is then not compared.
 */
export const DIRECTORY_ROLE: KindSchema = {
  kind: 'secrets.DirectoryRole',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('directory'),
    name: SEGMENT_NAME_FIELD,
    serviceAccountName: { type: 'string', required: true, ...NON_EMPTY },
    ttl: { type: 'duration' },
  },
  outputs: {
    passwordLastSet: { type: 'string' },
    lastServiceRotation: { type: 'string' },
  },
};
