import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { SecretValue } from '../../../lib';
import { DatabaseConnection, DatabaseCredentialType, DatabaseRole, DatabaseStaticRole } from '../../../lib/secrets';
import { badDuration, badSegmentName } from '../../reliability/prop-arbitraries';
import { SECRETS_DIR, SECRET_FILES_ENV, admin } from '../../schema/full-sample-helpers';
import { SampleWorld } from '../../schema/full-samples';
import { paramList } from '../../schema/spec-field-readers';
import { once, postgresHost, secretsKeys } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';
import { SpecField, specTableAfter } from '../../support/spec-tables';

function databaseConnection(stack: TerraformStack, i: number): DatabaseConnection {
  if (!postgresHost) throw new Error('the database samples need a PostgreSQL server: seedSampleWorld(env, scale, postgresUrl) first');
  return once(stack, `db${i}`, () => new DatabaseConnection(stack, `db${i}`, {
    name: `t-db-${i}`, connectionUrl: `postgresql://{{username}}:{{password}}@${postgresHost}`, username: `t_root_${i}`,
    password: SecretValue.fromEnv('PLANTED_ENGINE_SECRET'), allowedRoles: [`t-dbrole-${i}`, `t-dbstatic-${i}`, `t-dbrole-${i}`],
  }));
}

/** Mounts of their own (every field set to a non-default value, the mount too). */
const DB_MOUNT = 'full-db';

const ROOT_PASSWORD_FILE = path.join(SECRETS_DIR, 'root');

/** A mount of the database engine, a root user and a static user on the PostgreSQL server (once). */
let dbSeeded: Promise<void> | undefined;

function seedDatabase(world: SampleWorld): Promise<void> {
  dbSeeded ??= (async () => {
    fs.writeFileSync(ROOT_PASSWORD_FILE, 'full-root-pass-1', { mode: 0o600 });
    await admin(world, 'POST', `mounts/${DB_MOUNT}`, { type: 'database' });
    const c = new Client({ connectionString: world.postgresUrl });
    await c.connect();
    try {
      await c.query('CREATE ROLE full_root WITH LOGIN CREATEROLE PASSWORD \'full-root-pass-1\'');
      await c.query('CREATE ROLE full_static WITH LOGIN PASSWORD \'static-1\'; GRANT full_static TO full_root WITH ADMIN OPTION');
    } finally {
      await c.end();
    }
  })();
  return dbSeeded;
}

function connection(stack: TerraformStack, world: SampleWorld): DatabaseConnection {
  const found = stack.node.tryFindChild('full-db-connection') as DatabaseConnection | undefined;
  if (found) return found;
  const u = new URL(world.postgresUrl!);
  return new DatabaseConnection(stack, 'full-db-connection', {
    mount: DB_MOUNT, name: 'full-conn', pluginVersion: 'v16.0.0', verifyConnection: false, allowedRoles: ['full-role', 'full-static'],
    rootRotationStatements: ['ALTER ROLE "{{username}}" WITH PASSWORD \'{{password}}\''], passwordPolicy: 'full-policy',
    connectionUrl: `postgresql://{{username}}:{{password}}@${u.host}${u.pathname}`, username: 'full_root',
    password: SecretValue.fromFile(ROOT_PASSWORD_FILE), disableEscaping: true, rotateRootOnCreate: true,
  });
}

const ONLY_PLUGIN = 'the emulator runs only the PostgreSQL plugin (postgresql-database-plugin, the default)';

/** The parameters cell of an endpoint of the database engine's table. */
function databaseParams(operation: string, durations: readonly string[] = []): SpecField[] {
  const row = specTableAfter('secrets-api', '| Operation |', '### Database engine\n\n|').find((r) => r[0] === operation);
  if (!row) throw new Error(`no "${operation}" row in the database engine's table`);
  return paramList(row[2], durations);
}

/** The samples of the database family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'secrets.DatabaseConnection': {
    sample: {
      weight: 3,
      build: (stack, i) => { databaseConnection(stack, i); },
      count: async (env) => (await secretsKeys(env, 'database/config')).filter((k) => k.startsWith('t-db-')).length,
    },
    full: {
      address: 'full-db-connection',
      needsPostgres: true,
      seed: seedDatabase,
      env: SECRET_FILES_ENV,
      build: (stack, world) => { connection(stack, world); },
      defaultsKept: { pluginName: ONLY_PLUGIN },
    },
    specFields: () => databaseParams('Configure connection'),
    // Secrets engines (names are one path segment of the service: see badSegmentName).
    props: {
      base: { name: 'pg', connectionUrl: 'postgresql://{{username}}:{{password}}@db:5432/app' },
      valid: { name: fc.constantFrom('pg', 'db.prod', 'pg_main-2', '_x') },
      optional: { mount: 'database', username: 'root', password: SecretValue.unsafePlainText('pw'), allowedRoles: ['app'], verifyConnection: false },
      invalid: { name: badSegmentName, mount: fc.constantFrom('/db', 'a/../b') },
    },
  },
  'secrets.DatabaseRole': {
    sample: {
      weight: 3,
      build: (stack, i) => {
        new DatabaseRole(stack, `dbrole${i}`, {
          name: `t-dbrole-${i}`, connection: databaseConnection(stack, i), defaultTtl: '3600', maxTtl: '120m',
          creationStatements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
        });
      },
      count: async (env) => (await secretsKeys(env, 'database/roles')).filter((k) => k.startsWith('t-dbrole-')).length,
    },
    full: {
      address: 'full-db-role',
      needsPostgres: true,
      seed: seedDatabase,
      env: SECRET_FILES_ENV,
      build: (stack, world) => {
        new DatabaseRole(stack, 'full-db-role', {
          connection: connection(stack, world), name: 'full-role', defaultTtl: '30m', maxTtl: '2h',
          creationStatements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
          revocationStatements: ['DROP ROLE IF EXISTS "{{name}}"'], rollbackStatements: ['DROP ROLE IF EXISTS "{{name}}"'],
          renewStatements: ['ALTER ROLE "{{name}}" VALID UNTIL \'{{expiration}}\''],
          credentialType: DatabaseCredentialType.RSA_PRIVATE_KEY, credentialConfig: { key_bits: '4096', format: 'pkcs8' },
        });
      },
    },
    specFields: () => databaseParams('Create or update role', ['default_ttl', 'max_ttl']),
    props: {
      base: { name: 'app', dbName: 'pg', creationStatements: ['CREATE ROLE "{{name}}"'] },
      optional: { defaultTtl: '1h', maxTtl: '24h', revocationStatements: ['DROP ROLE "{{name}}"'] },
      invalid: { name: badSegmentName, defaultTtl: badDuration, maxTtl: badDuration },
    },
  },
  'secrets.DatabaseStaticRole': {
    sample: {
      weight: 3,
      build: (stack, i) => {
        new DatabaseStaticRole(stack, `dbstatic${i}`, { name: `t-dbstatic-${i}`, connection: databaseConnection(stack, i), username: `t_static_${i}`, rotationPeriod: '1440m' });
      },
      count: async (env) => (await secretsKeys(env, 'database/static-roles')).filter((k) => k.startsWith('t-dbstatic-')).length,
    },
    full: {
      address: 'full-db-static-role',
      needsPostgres: true,
      seed: seedDatabase,
      env: SECRET_FILES_ENV,
      build: (stack, world) => {
        new DatabaseStaticRole(stack, 'full-db-static-role', {
          connection: connection(stack, world), name: 'full-static', username: 'full_static', rotationPeriod: '12h',
          rotationStatements: ['ALTER ROLE "{{name}}" WITH PASSWORD \'{{password}}\''], credentialConfig: { password_policy: 'full-policy' },
        });
      },
      defaultsKept: { credentialType: 'a static role rotates a password: the PostgreSQL plugin has no static RSA keys' },
    },
    specFields: () => databaseParams('Create or update static role', ['rotation_period']),
    props: {
      base: { name: 'app', dbName: 'pg', username: 'app_user', rotationPeriod: '24h' },
      optional: { rotationStatements: ['ALTER ROLE x'] },
      invalid: { name: badSegmentName, rotationPeriod: badDuration },
    },
  },
  'secrets.DatabaseCredentials': {
    props: {
      base: { role: { mount: 'database', roleName: 'app' } },
      invalid: { role: fc.constantFrom({ mount: 'database', roleName: 'a/b' }, { mount: 'database', roleName: '' }, { mount: 'database' }) },
    },
  },
  'secrets.DatabaseStaticCredentials': {
    props: {
      base: { role: { mount: 'database', roleName: 'app' } },
      invalid: { role: fc.constantFrom({ mount: 'database', roleName: 'a b' }, { roleName: 'app' }) },
    },
  },
};
