import { KindSchema } from '../../core/schema';
import { mountField, NON_EMPTY, SEGMENT_NAME_FIELD } from '../shared/engine-fields';

/** The only plugin the emulator runs, and the connection's default. */
export const DEFAULT_DATABASE_PLUGIN = 'postgresql-database-plugin';

/**
 * `secrets.DatabaseConnection` (`{mount}/config/<name>`): the spec's configure-connection parameters.
 * The service never returns the root password, nor whether it verifies the connection or escapes the
 * credentials: those are compared with what the last apply sent.
 */
export const DATABASE_CONNECTION: KindSchema = {
  kind: 'secrets.DatabaseConnection',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('database'),
    name: SEGMENT_NAME_FIELD,
    pluginName: { type: 'string', default: DEFAULT_DATABASE_PLUGIN, ...NON_EMPTY },
    pluginVersion: { type: 'string', default: '' },
    verifyConnection: { type: 'boolean', default: true, writeOnly: true },
    allowedRoles: { type: 'string-set', default: [] },
    rootRotationStatements: { type: 'string-list', default: [], ...NON_EMPTY },
    passwordPolicy: { type: 'string', default: '' },
    connectionUrl: { type: 'string', required: true, ...NON_EMPTY },
    username: { type: 'string', default: '' },
    password: { type: 'secret', writeOnly: true },
    disableEscaping: { type: 'boolean', default: false, writeOnly: true },
    /** converge's own: one rotate-root call after the create. */
    rotateRootOnCreate: { type: 'boolean', default: false, local: true },
  },
};
