import { EngineFactory } from './engine';
import { DatabaseEngine } from '../database/database-engine.emulator';
import { DirectoryEngine } from '../directory/directory-engine.emulator';
import { KvEngine } from '../kv/kv-engine.emulator';
import { MeshTokenEngine } from '../mesh-token/mesh-token-engine.emulator';
import { PlatformTokenEngine } from '../platform-token/platform-token-engine.emulator';
import { TotpEngine } from '../totp/totp-engine.emulator';
import { AppRoleEngine } from '../approle/approle-engine.emulator';

/**
 * Engine types the secrets emulator can mount, by type name. Each engine lives in its own
 * file; a new engine (database, totp, directory, platform-token, mesh-token) adds one line here.
 */
export const ENGINE_FACTORIES: Record<string, EngineFactory> = {
  kv: (_mount, clock) => new KvEngine(clock),
  totp: (_mount, clock) => new TotpEngine(clock),
  platform: (mount) => new PlatformTokenEngine(mount),
  mesh: (mount, clock) => new MeshTokenEngine(mount, clock),
  database: (_mount, clock) => new DatabaseEngine(clock),
  directory: (_mount, clock) => new DirectoryEngine(clock),
};

/** Auth method types the secrets emulator can mount at `auth/<path>` (`sys/auth/<path>`). */
export const AUTH_ENGINE_FACTORIES: Record<string, EngineFactory> = {
  approle: (_mount, clock) => new AppRoleEngine(clock),
};
