import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { DatabaseConnection } from '../../lib/secrets/database/database-connection';
import { DatabaseCredentialType } from '../../lib/secrets/database/database-role-base';
import { DatabaseRole } from '../../lib/secrets/database/database-role';
import { DatabaseStaticRole } from '../../lib/secrets/database/database-static-role';
import { DirectoryConfig } from '../../lib/secrets/directory/directory-config';
import { DirectoryLibrarySet } from '../../lib/secrets/directory/directory-library-set';
import { DirectoryRole } from '../../lib/secrets/directory/directory-role';
import { FullSample, SampleWorld } from './full-samples';

/** Mounts of their own (every field set to a non-default value, the mount too). */
const DB_MOUNT = 'full-db';
const DIR_MOUNT = 'full-dir';
const BINDDN = 'CN=full,OU=svc,DC=example,DC=com';
/** The root and bind passwords, given to the CLI in files (they are secrets: never in the app). */
const SECRETS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-full-db-'));
const ROOT_PASSWORD_FILE = path.join(SECRETS_DIR, 'root');
const BIND_PASSWORD_FILE = path.join(SECRETS_DIR, 'bind');
/** The CLI reads secret files only in the app directory and the directories it is given (docs/security.md). */
const SECRET_FILES_ENV = { CONVERGE_SECRET_FILE_DIR: SECRETS_DIR };

async function admin(world: SampleWorld, method: string, p: string, body: unknown): Promise<void> {
  const r = await fetch(`${world.env.SECRETS_ADDR}/__admin/${p}`, {
    method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${method} /__admin/${p}: ${r.status} ${await r.text()}`);
}

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

/** A mount of the directory engine and the accounts of its simulated directory (once). */
let dirSeeded: Promise<void> | undefined;
function seedDirectory(world: SampleWorld): Promise<void> {
  dirSeeded ??= (async () => {
    fs.writeFileSync(BIND_PASSWORD_FILE, 'full-bind-pass-1', { mode: 0o600 });
    await admin(world, 'POST', `mounts/${DIR_MOUNT}`, { type: 'directory' });
    await admin(world, 'POST', `directory/${DIR_MOUNT}/accounts/${BINDDN}`, { password: 'full-bind-pass-1' });
    for (const a of ['svc-full-role', 'svc-full-a', 'svc-full-b']) await admin(world, 'POST', `directory/${DIR_MOUNT}/accounts/${a}`, {});
  })();
  return dirSeeded;
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

function directoryConfig(stack: TerraformStack): DirectoryConfig {
  return (stack.node.tryFindChild('full-dir-config') as DirectoryConfig | undefined) ?? new DirectoryConfig(stack, 'full-dir-config', {
    mount: DIR_MOUNT, binddn: BINDDN, bindpass: SecretValue.fromFile(BIND_PASSWORD_FILE), url: 'ldaps://ldap.example.com',
    userdn: 'OU=svc,DC=example,DC=com', upndomain: 'example.com', certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
    insecureTls: true, starttls: true, tlsMinVersion: 'tls11', tlsMaxVersion: 'tls13', requestTimeout: '45s', ttl: '12h', maxTtl: '48h',
    length: 20, formatter: 'pre-{{PASSWORD}}', lastRotationTolerance: '10s',
  });
}

const ONLY_PLUGIN = 'the emulator runs only the PostgreSQL plugin (postgresql-database-plugin, the default)';

/** A full sample of each secrets kind of the db area. */
export const SECRETS_DB_FULL_SAMPLES: Record<string, FullSample> = {
  'secrets.DatabaseConnection': {
    address: 'full-db-connection',
    needsPostgres: true,
    seed: seedDatabase,
    env: SECRET_FILES_ENV,
    build: (stack, world) => { connection(stack, world); },
    defaultsKept: { pluginName: ONLY_PLUGIN },
  },
  'secrets.DatabaseRole': {
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
  'secrets.DatabaseStaticRole': {
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
  'secrets.DirectoryConfig': {
    address: 'full-dir-config',
    seed: seedDirectory,
    env: SECRET_FILES_ENV,
    build: (stack) => { directoryConfig(stack); },
    defaultsKept: { passwordPolicy: 'excludes length and formatter, which the sample sets (a policy is covered by the construct tests)' },
  },
  'secrets.DirectoryRole': {
    address: 'full-dir-role',
    seed: seedDirectory,
    env: SECRET_FILES_ENV,
    build: (stack) => { new DirectoryRole(stack, 'full-dir-role', { config: directoryConfig(stack), name: 'full-role', serviceAccountName: 'svc-full-role', ttl: '6h' }); },
  },
  'secrets.DirectoryLibrarySet': {
    address: 'full-dir-library-set',
    seed: seedDirectory,
    env: SECRET_FILES_ENV,
    build: (stack) => {
      new DirectoryLibrarySet(stack, 'full-dir-library-set', {
        config: directoryConfig(stack), name: 'full-set', serviceAccountNames: ['svc-full-b', 'svc-full-a'], ttl: '2h', maxTtl: '4h',
        disableCheckInEnforcement: true,
      });
    },
  },
};
