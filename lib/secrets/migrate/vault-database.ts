import { block, enumOf, isSet, seconds, setOnly } from '../../core/migrate/mapping-util';
import { ConstructRef, MigrationContext, TerraformMapping, TfResource } from '../../core/migrate/terraform-mapping';
import { DATABASE_CONNECTION } from '../database/database-connection.schema';
import { DATABASE_ROLE } from '../database/database-role.schema';
import { DATABASE_STATIC_ROLE } from '../database/database-static-role.schema';

/** The plugins whose block converge's connection expresses (connection_url, username, password). */
const PLUGIN_BLOCKS: Record<string, string> = {
  postgresql: 'postgresql-database-plugin',
  mysql: 'mysql-database-plugin',
};

/** `vault_database_secret_backend_connection` -> `secrets.DatabaseConnection`; its password comes from the environment. */
export const VAULT_DATABASE_CONNECTION: TerraformMapping = {
  type: 'vault_database_secret_backend_connection',
  order: 0,
  map(r, ctx) {
    const v = r.values;
    const blockName = Object.keys(PLUGIN_BLOCKS).find((b) => block(v, b));
    if (!blockName) return { skip: 'its database block is none converge expresses (postgresql, mysql)' };
    const b = block(v, blockName)!;
    return {
      kind: DATABASE_CONNECTION.kind,
      className: 'secrets.DatabaseConnection',
      importId: `${v.backend}/config/${v.name}`,
      props: setOnly({
        mount: v.backend,
        name: v.name,
        pluginName: isSet(v.plugin_name) ? v.plugin_name : PLUGIN_BLOCKS[blockName],
        verifyConnection: v.verify_connection === false ? false : undefined,
        allowedRoles: v.allowed_roles,
        rootRotationStatements: v.root_rotation_statements,
        passwordPolicy: v.password_policy,
        connectionUrl: b.connection_url,
        username: b.username,
        password: isSet(b.password) ? ctx.secret(r, `${blockName}[0].password`, b.password) : undefined,
        disableEscaping: b.disable_escaping === true ? true : undefined,
      }),
    };
  },
};

/** The connection construct a role's db_name names, when the state holds it. */
function connectionOf(v: Record<string, unknown>, ctx: MigrationContext): ConstructRef | undefined {
  const c: TfResource | undefined = ctx.find('vault_database_secret_backend_connection', { backend: v.backend, name: v.db_name });
  return c ? new ConstructRef(c.address) : undefined;
}

/** `vault_database_secret_backend_role` -> `secrets.DatabaseRole` (TTLs in seconds become durations). */
export const VAULT_DATABASE_ROLE: TerraformMapping = {
  type: 'vault_database_secret_backend_role',
  map(r, ctx) {
    const v = r.values;
    const connection = connectionOf(v, ctx);
    return {
      kind: DATABASE_ROLE.kind,
      className: 'secrets.DatabaseRole',
      importId: `${v.backend}/roles/${v.name}`,
      props: setOnly({
        mount: v.backend,
        name: v.name,
        ...(connection ? { connection } : { dbName: v.db_name }),
        defaultTtl: seconds(v.default_ttl),
        maxTtl: seconds(v.max_ttl),
        creationStatements: v.creation_statements,
        revocationStatements: v.revocation_statements,
        rollbackStatements: v.rollback_statements,
        renewStatements: v.renew_statements,
        credentialType: isSet(v.credential_type) && v.credential_type !== 'password' ? enumOf('secrets.DatabaseCredentialType', String(v.credential_type)) : undefined,
      }),
    };
  },
};

/** `vault_database_secret_backend_static_role` -> `secrets.DatabaseStaticRole`. */
export const VAULT_DATABASE_STATIC_ROLE: TerraformMapping = {
  type: 'vault_database_secret_backend_static_role',
  map(r, ctx) {
    const v = r.values;
    if (isSet(v.rotation_schedule)) return { skip: 'rotation_schedule (a cron schedule) has no DatabaseStaticRole prop: converge rotates by period' };
    const connection = connectionOf(v, ctx);
    return {
      kind: DATABASE_STATIC_ROLE.kind,
      className: 'secrets.DatabaseStaticRole',
      importId: `${v.backend}/static-roles/${v.name}`,
      props: setOnly({
        mount: v.backend,
        name: v.name,
        ...(connection ? { connection } : { dbName: v.db_name }),
        username: v.username,
        rotationPeriod: seconds(v.rotation_period),
        rotationStatements: v.rotation_statements,
      }),
    };
  },
};
