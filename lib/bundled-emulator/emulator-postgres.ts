import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from 'pg';
import { EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';

/** The database `converge emulator --postgres` serves, and the roles in it (docs/secrets-database-directory.md). */
export const EMULATOR_DATABASE = 'app';
/** Owns the database and creates roles (LOGIN CREATEROLE): the user a `DatabaseConnection` connects as. */
export const EMULATOR_DATABASE_ADMIN = 'vault_root';
/** An existing login role for a `DatabaseStaticRole` to manage (the admin holds it WITH ADMIN OPTION). */
export const EMULATOR_STATIC_USER = 'reporting';

/** The variables the emulator's env file gains with a PostgreSQL of its own. */
export interface EmulatorPostgresEnv {
  /** `127.0.0.1:<port>`: where the secrets engines (and the user) reach the database. */
  readonly DB_ADDRESS: string;
  /** The password of `vault_root`, read by `SecretValue.fromEnv('DB_ROOT_PASSWORD')`. */
  readonly DB_ROOT_PASSWORD: string;
  /** The app reads DB_ADDRESS at synth: named for synthesis, whose environment is an allow-list. */
  readonly CONVERGE_SYNTH_ENV: string;
}

/** A PostgreSQL server that `converge emulator --postgres` runs beside the three APIs. */
export interface EmulatorPostgres {
  readonly env: EmulatorPostgresEnv;
  stop(): Promise<void>;
}

/**
 * Starts the emulator's PostgreSQL: in `<dataDir>/postgres` when the emulator keeps its data (the
 * same port, database and passwords after a restart, so that stored connections still work), else
 * in a temporary directory removed when it stops. A new cluster gets the database `app`, owned by
 * `vault_root` (LOGIN CREATEROLE, a random password), and the login role `reporting`.
 */
export async function startEmulatorPostgres(options: { dataDir?: string; port?: number } = {}): Promise<EmulatorPostgres> {
  let dir: string | undefined;
  if (options.dataDir) {
    fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    // As root the server runs as the `postgres` user, which must reach its directory inside the
    // owner-only data directory: traversable (0711), still not listable, its files still 0600.
    if (process.getuid?.() === 0) fs.chmodSync(options.dataDir, 0o711);
    dir = path.join(options.dataDir, 'postgres');
  }
  const server = await startEmbeddedPostgres({ dir, port: options.port });
  try {
    const adminPassword = await adminPasswordOf(server, dir);
    const synthEnv = [...(process.env.CONVERGE_SYNTH_ENV ?? '').split(',').map((n) => n.trim()).filter((n) => n && n !== 'DB_ADDRESS'), 'DB_ADDRESS'];
    return {
      env: { DB_ADDRESS: `127.0.0.1:${server.port}`, DB_ROOT_PASSWORD: adminPassword, CONVERGE_SYNTH_ENV: synthEnv.join(',') },
      stop: () => server.stop(),
    };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** Seeds a new cluster (and remembers the admin's password beside a kept one); reads it back otherwise. */
async function adminPasswordOf(server: EmbeddedPostgres, dir: string | undefined): Promise<string> {
  const file = dir && path.join(dir, 'admin.json');
  if (!server.created && file) {
    if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, 'utf8')) as { password: string }).password;
    throw new Error(`the emulator's PostgreSQL in ${dir} was never set up (stopped while it was): delete that directory to start it afresh`);
  }
  const password = crypto.randomBytes(16).toString('hex');
  const client = new Client({ connectionString: server.url });
  await client.connect();
  try {
    await client.query(`CREATE ROLE ${EMULATOR_DATABASE_ADMIN} WITH LOGIN CREATEROLE PASSWORD '${password}'`);
    await client.query(`CREATE DATABASE ${EMULATOR_DATABASE} OWNER ${EMULATOR_DATABASE_ADMIN}`);
    await client.query(`CREATE ROLE ${EMULATOR_STATIC_USER} WITH LOGIN PASSWORD '${crypto.randomBytes(16).toString('hex')}'`);
    // PostgreSQL 16 and later: changing another role's password takes the ADMIN OPTION on it.
    await client.query(`GRANT ${EMULATOR_STATIC_USER} TO ${EMULATOR_DATABASE_ADMIN} WITH ADMIN OPTION`);
  } finally {
    await client.end();
  }
  if (file) fs.writeFileSync(file, JSON.stringify({ password }), { mode: 0o600 });
  return password;
}
