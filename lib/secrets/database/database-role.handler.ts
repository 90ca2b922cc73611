import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { DatabaseClient, DbRoleInput } from './database-client';
import { normalDuration } from '../../core/duration';
import { pathImportId, secretsClient, splitApiPath } from '../engine-util';

function client(ctx: HandlerContext): DatabaseClient {
  return new DatabaseClient(secretsClient(ctx), ctx.address);
}

function body(spec: Spec): DbRoleInput {
  return {
    db_name: spec.dbName as string,
    default_ttl: spec.defaultTtl as string,
    max_ttl: spec.maxTtl as string,
    creation_statements: spec.creationStatements as string[],
    revocation_statements: spec.revocationStatements as string[],
    rollback_statements: spec.rollbackStatements as string[],
    renew_statements: spec.renewStatements as string[],
    credential_type: spec.credentialType as string,
    credential_config: spec.credentialConfig as Record<string, string>,
  };
}

async function write(ctx: HandlerContext, spec: Spec): Promise<Written> {
  await client(ctx).writeRole(spec.mount as string, spec.name as string, body(spec));
  return { id: `${spec.mount}/roles/${spec.name}` };
}

/** Lifecycle of `secrets.DatabaseRole` (`{mount}/roles/<name>`); every field is returned by the read. */
export const databaseRoleHandler: ResourceHandler = {
  kind: 'secrets.DatabaseRole',
  api: 'secrets',
  replaceFields: ['mount', 'name'],
  destroyWarning: 'deletes the role: no new credentials are issued (credentials already issued live until their lease ends)',

  naturalId: (spec) => `${spec.mount}/roles/${spec.name}`,
  importId: (id) => pathImportId(id, 'roles', 'database/roles/app'),

  async read(ctx, id): Promise<Observed | undefined> {
    const { mount, name } = splitApiPath(id, 'roles');
    const r = await client(ctx).readRole(mount, name);
    if (!r) return undefined;
    return {
      fields: {
        mount, name,
        dbName: r.db_name,
        defaultTtl: normalDuration(r.default_ttl),
        maxTtl: normalDuration(r.max_ttl),
        creationStatements: r.creation_statements,
        revocationStatements: r.revocation_statements,
        rollbackStatements: r.rollback_statements,
        renewStatements: r.renew_statements,
        credentialType: r.credential_type,
        credentialConfig: r.credential_config ?? {},
      },
    };
  },

  create: (ctx, spec) => write(ctx, spec),
  update: (ctx, _id, spec) => write(ctx, spec),

  async delete(ctx, id) {
    const { mount, name } = splitApiPath(id, 'roles');
    await client(ctx).deleteRole(mount, name);
  },
};
