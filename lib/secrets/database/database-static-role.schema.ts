import { KindSchema } from '../../core/schema';
import { NON_EMPTY } from '../shared/engine-fields';
import { DATABASE_CREDENTIAL, DATABASE_ROLE_TARGET } from './database-role.schema';

/** The shortest rotation period the service accepts (seconds). */
export const MIN_ROTATION_PERIOD = 5;

/** `secrets.DatabaseStaticRole` (`{mount}/static-roles/<name>`): the spec's static-role parameters. */
export const DATABASE_STATIC_ROLE: KindSchema = {
  kind: 'secrets.DatabaseStaticRole',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    ...DATABASE_ROLE_TARGET,
    username: { type: 'string', required: true, replace: true, ...NON_EMPTY },
    rotationPeriod: { type: 'duration', required: true, min: MIN_ROTATION_PERIOD },
    rotationStatements: { type: 'string-list', default: [], ...NON_EMPTY },
    ...DATABASE_CREDENTIAL,
  },
};
