import { EngineFactory } from './engine';
import { DatabaseEngine } from './database/database-engine';
import { KvEngine } from './kv-engine';

/**
 * Engine types the secrets emulator can mount, by type name. Each engine lives in its own
 * file; a new engine (database, totp, directory, platform-token, mesh-token) adds one line here.
 */
export const ENGINE_FACTORIES: Record<string, EngineFactory> = {
  kv: () => new KvEngine(),
  database: (mount) => new DatabaseEngine(mount),
};
