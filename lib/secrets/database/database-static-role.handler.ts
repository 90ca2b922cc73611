import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { DatabaseClient } from './database-client';
import { normalDuration } from '../../core/duration';
import { pathImportId, secretsClient, splitApiPath } from '../engine-util';

function client(ctx: HandlerContext): DatabaseClient {
  return new DatabaseClient(secretsClient(ctx), ctx.address);
}

async function write(ctx: HandlerContext, spec: Spec, withUsername: boolean): Promise<Written> {
  await client(ctx).writeStaticRole(spec.mount as string, spec.name as string, {
    db_name: spec.dbName as string,
    ...(withUsername ? { username: spec.username as string } : {}),
    rotation_period: spec.rotationPeriod as string,
    rotation_statements: spec.rotationStatements as string[],
    credential_type: spec.credentialType as string,
    credential_config: spec.credentialConfig as Record<string, string>,
  });
  return { id: `${spec.mount}/static-roles/${spec.name}` };
}

/**
 * Lifecycle of `secrets.DatabaseStaticRole` (`{mount}/static-roles/<name>`). The service rotates
 * the password at creation; the username cannot change in place (replacement).
 */
export const databaseStaticRoleHandler: ResourceHandler = {
  kind: 'secrets.DatabaseStaticRole',
  api: 'secrets',
  replaceFields: ['mount', 'name', 'username'],
  destroyWarning: 'deletes the static role: the service stops rotating the user\'s password; the database user itself stays and must be cleaned up by hand',

  naturalId: (spec) => `${spec.mount}/static-roles/${spec.name}`,
  importId: (id) => pathImportId(id, 'static-roles', 'database/static-roles/app'),

  async read(ctx, id): Promise<Observed | undefined> {
    const { mount, name } = splitApiPath(id, 'static-roles');
    const r = await client(ctx).readStaticRole(mount, name);
    if (!r) return undefined;
    return {
      fields: {
        mount, name,
        dbName: r.db_name,
        username: r.username,
        rotationPeriod: normalDuration(r.rotation_period),
        rotationStatements: r.rotation_statements,
        credentialType: r.credential_type,
        credentialConfig: r.credential_config ?? {},
      },
    };
  },

  create: (ctx, spec) => write(ctx, spec, true),
  update: (ctx, _id, spec) => write(ctx, spec, false),

  async delete(ctx, id) {
    const { mount, name } = splitApiPath(id, 'static-roles');
    await client(ctx).deleteStaticRole(mount, name);
  },
};
