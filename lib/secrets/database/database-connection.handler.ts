import { FieldChange, HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { DatabaseClient, DbConnectionInput } from './database-client';
import { stringSet } from '../../core/string-set';
import { pathImportId, secretsClient, splitApiPath, touchedFields } from '../engine-util';

function client(ctx: HandlerContext): DatabaseClient {
  return new DatabaseClient(secretsClient(ctx), ctx.address);
}

/** The connection body; the root password only when `withPassword` (create, or its value changed). */
function body(spec: Spec, withPassword: boolean): DbConnectionInput {
  return {
    plugin_name: spec.pluginName as string,
    plugin_version: spec.pluginVersion as string,
    verify_connection: spec.verifyConnection as boolean,
    allowed_roles: spec.allowedRoles as string[],
    root_rotation_statements: spec.rootRotationStatements as string[],
    password_policy: spec.passwordPolicy as string,
    connection_url: spec.connectionUrl as string,
    username: spec.username as string,
    disable_escaping: spec.disableEscaping as boolean,
    ...(withPassword && typeof spec.password === 'string' ? { password: spec.password } : {}),
  };
}

/**
 * Lifecycle of `secrets.DatabaseConnection` (`{mount}/config/<name>`). The root password is
 * write-only: left out of the read (the engine compares its HMAC with the last apply), sent on
 * create and only when a plan changes it, because after a root rotation the service holds a
 * password that re-sending the old one would break. `verifyConnection`, `disableEscaping` and
 * `rotateRootOnCreate` are not returned either and are compared with the last apply.
 */
export const databaseConnectionHandler: ResourceHandler = {
  kind: 'secrets.DatabaseConnection',
  api: 'secrets',
  replaceFields: ['mount', 'name'],
  destroyWarning: 'deletes the database connection: its roles stop issuing credentials, and a root password rotated by the service is lost with it (only the service knew it)',

  naturalId: (spec) => `${spec.mount}/config/${spec.name}`,
  importId: (id) => pathImportId(id, 'config', 'database/config/app-db'),

  async read(ctx, id): Promise<Observed | undefined> {
    const { mount, name } = splitApiPath(id, 'config');
    const c = await client(ctx).readConnection(mount, name);
    if (!c) return undefined;
    return {
      fields: {
        mount, name,
        pluginName: c.plugin_name,
        pluginVersion: c.plugin_version,
        allowedRoles: stringSet(c.allowed_roles),
        rootRotationStatements: c.root_credentials_rotate_statements,
        passwordPolicy: c.password_policy,
        connectionUrl: c.connection_details.connection_url,
        username: c.connection_details.username,
      },
    };
  },

  async create(ctx, spec): Promise<Written> {
    const mount = spec.mount as string;
    const name = spec.name as string;
    await client(ctx).writeConnection(mount, name, body(spec, true));
    if (spec.rotateRootOnCreate) await client(ctx).rotateRoot(mount, name);
    return { id: `${mount}/config/${name}` };
  },

  async update(ctx, id, spec, changes: readonly FieldChange[]): Promise<Written> {
    const { mount, name } = splitApiPath(id, 'config');
    await client(ctx).writeConnection(mount, name, body(spec, touchedFields(changes).has('password')));
    return { id };
  },

  async delete(ctx, id) {
    const { mount, name } = splitApiPath(id, 'config');
    await client(ctx).deleteConnection(mount, name);
  },
};
