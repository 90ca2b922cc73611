import { FieldsSchema, KindSchema } from '../../core/schema';
import { mountField, NON_EMPTY, SEGMENT_NAME, SEGMENT_NAME_FIELD } from '../shared/engine-fields';

/** The credential types of the spec's roles. */
export const DATABASE_CREDENTIAL_TYPES = ['password', 'rsa_private_key'] as const;

/** Where a dynamic or static role lives and which connection it uses. */
export const DATABASE_ROLE_TARGET: FieldsSchema = {
  mount: mountField('database'),
  name: SEGMENT_NAME_FIELD,
  /** Required, from `dbName` or the name of `connection` (the construct checks that one is given). */
  dbName: { type: 'string', pattern: SEGMENT_NAME, patternRule: SEGMENT_NAME_FIELD.patternRule },
};

/** The credential settings both kinds of role take. */
export const DATABASE_CREDENTIAL: FieldsSchema = {
  credentialType: { type: 'string', oneOf: DATABASE_CREDENTIAL_TYPES, default: 'password' },
  credentialConfig: { type: 'string-map', default: {} },
};

/** `secrets.DatabaseRole` (`{mount}/roles/<name>`): the spec's create-or-update-role parameters. */
export const DATABASE_ROLE: KindSchema = {
  kind: 'secrets.DatabaseRole',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    ...DATABASE_ROLE_TARGET,
    defaultTtl: { type: 'duration', default: '0s' },
    maxTtl: { type: 'duration', default: '0s' },
    creationStatements: { type: 'string-list', required: true, ...NON_EMPTY },
    revocationStatements: { type: 'string-list', default: [], ...NON_EMPTY },
    rollbackStatements: { type: 'string-list', default: [], ...NON_EMPTY },
    renewStatements: { type: 'string-list', default: [], ...NON_EMPTY },
    ...DATABASE_CREDENTIAL,
  },
};
