import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Emulator } from '../../bundled-emulator/bundled-emulator';
import { postgresBinaries } from '../../bundled-emulator/embedded-postgres';
import { EMULATOR_DATABASE, EMULATOR_DATABASE_ADMIN, EMULATOR_STATIC_USER } from '../../bundled-emulator/emulator-postgres';
import { assertPrivateDir } from '../../core/private-dir';
import { envFileReady, isAlive, parseEnvFile, PID_KEY, waitForEnvFile, writeEnvFileAtomically } from '../emulator-env-file';
import { Output } from '../output';
import { PLATFORM_SHAPES, PlatformShape } from '../../platform/emulator/server-shape';

export interface EmulatorCommandOptions {
  readonly platformPort?: string;
  readonly secretsPort?: string;
  readonly meshPort?: string;
  readonly dataDir?: string;
  readonly latencyMs?: string;
  readonly faultRate?: string;
  /** `--fault-seed`, else `CONVERGE_FAULT_SEED`. */
  readonly faultSeed?: string;
  readonly faultRetryAfter?: string;
  readonly faultTimeoutMs?: string;
  /** `--write-env FILE` (formerly `--env-file`, which Node 20 reads itself when run through npx). */
  readonly writeEnv?: string;
  /** Start in the background and return once the three APIs listen. */
  readonly detach?: boolean;
  readonly platformEdition?: string;
  readonly platformRateLimit?: string;
  readonly mount?: string[];
  readonly meshDatacenter?: string;
  readonly meshDatacenters?: string;
  readonly meshTrustDomain?: string;
  /** `--mesh-shape spec|consul-1.16`. */
  readonly meshShape?: string;
  /** `--platform-shape spec|otf`. */
  readonly platformShape?: string;
  /** `--postgres`: a PostgreSQL server of its own for the database engine. */
  readonly postgres?: boolean;
  readonly postgresPort?: string;
}

function num(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} must be a non-negative number (got ${v})`);
  return n;
}

/** `converge emulator`: serves the three APIs until SIGINT or SIGTERM. */
export async function emulatorCommand(opts: EmulatorCommandOptions, out: Output): Promise<number> {
  if (opts.writeEnv) await refuseRunningEmulator(opts.writeEnv);
  if (opts.postgres) postgresBinaries(); // installed? Said at once, not from the log of a detached child.
  // Another user's directory (a shared /tmp path) is never adopted with what it holds.
  if (opts.dataDir) assertPrivateDir(path.resolve(opts.dataDir), '--data-dir');
  if (opts.detach) return detach(opts, out);
  const edition = opts.platformEdition ?? 'hosted';
  if (edition !== 'hosted' && edition !== 'self-hosted') throw new Error(`--platform-edition must be hosted or self-hosted (got ${edition})`);
  const mounts: Record<string, string> = {};
  for (const m of opts.mount ?? []) {
    const [type, mountPath] = m.split(':');
    if (!type || !mountPath) throw new Error(`--mount takes TYPE:PATH, e.g. database:db2 (got ${m})`);
    mounts[mountPath] = type === 'kv-v2' ? 'kv' : type;
  }
  if (opts.meshShape !== undefined && opts.meshShape !== 'spec' && opts.meshShape !== 'consul-1.16') {
    throw new Error(`--mesh-shape must be spec or consul-1.16 (got ${opts.meshShape})`);
  }
  if (opts.platformShape !== undefined && !(PLATFORM_SHAPES as readonly string[]).includes(opts.platformShape)) {
    throw new Error(`--platform-shape must be ${PLATFORM_SHAPES.join(' or ')} (got ${opts.platformShape})`);
  }
  if (opts.postgresPort !== undefined && !opts.postgres) throw new Error('--postgres-port is the port of --postgres: add --postgres');
  const emulator = await Emulator.start({
    postgres: opts.postgres, postgresPort: num(opts.postgresPort, '--postgres-port'),
    meshShape: opts.meshShape as 'spec' | 'consul-1.16' | undefined,
    platformShape: opts.platformShape as PlatformShape | undefined,
    platformPort: num(opts.platformPort, '--platform-port'), secretsPort: num(opts.secretsPort, '--secrets-port'),
    meshPort: num(opts.meshPort, '--mesh-port'), dataDir: opts.dataDir, latencyMs: num(opts.latencyMs, '--latency-ms'),
    faultRate: num(opts.faultRate, '--fault-rate'), faultSeed: opts.faultSeed, faultRetryAfterSeconds: num(opts.faultRetryAfter, '--fault-retry-after'),
    faultTimeoutMs: num(opts.faultTimeoutMs, '--fault-timeout-ms'), platformEdition: edition, platformRateLimit: num(opts.platformRateLimit, '--platform-rate-limit'),
    secretsMounts: mounts, meshDatacenter: opts.meshDatacenter,
    meshDatacenters: opts.meshDatacenters ? opts.meshDatacenters.split(',').filter(Boolean) : undefined, meshTrustDomain: opts.meshTrustDomain,
  });
  const envText = `${emulator.envFile()}${PID_KEY}=${process.pid}\n`;
  if (opts.writeEnv) writeEnvFileAtomically(opts.writeEnv, envText);
  // A detached emulator's output goes to its log: the tokens stay in the env file (mode 0600) only.
  if (process.env[DETACHED_VARIABLE] === '1') out.info(`# addresses and tokens written to ${opts.writeEnv}`);
  else process.stdout.write(emulator.envFile());
  out.info(out.c.dim(`# converge emulator running${opts.dataDir ? ` (data in ${opts.dataDir})` : ''}; stop with Ctrl-C`));
  if (emulator.env.DB_ADDRESS) {
    out.info(out.c.dim(`# PostgreSQL at ${emulator.env.DB_ADDRESS}: database ${EMULATOR_DATABASE} owned by ${EMULATOR_DATABASE_ADMIN} `
      + `(password DB_ROOT_PASSWORD), login role ${EMULATOR_STATIC_USER}`));
  }
  if (emulator.faultSeed !== undefined) {
    out.result(`# injecting faults: rate ${opts.faultRate}, seed ${emulator.faultSeed} (replay them with --fault-seed ${emulator.faultSeed} or CONVERGE_FAULT_SEED=${emulator.faultSeed})`);
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await emulator.stop();
  // The file describes this emulator only: gone with it, so that nobody sources dead addresses.
  if (opts.writeEnv && ownsEnvFile(opts.writeEnv)) fs.rmSync(opts.writeEnv, { force: true });
  return 0;
}

/**
 * FILE already describes a running emulator (its process alive, its APIs listening): another one
 * must not take the file over, nor delete it on its way out (its tokens would be lost).
 */
async function refuseRunningEmulator(file: string): Promise<void> {
  const running = await envFileReady(file);
  const pid = running?.[PID_KEY];
  if (!running || !pid) return;
  throw new Error(`an emulator is already running (pid ${pid}) and wrote ${file}: stop it (converge emulator stop ${file}), `
    + 'or start another with another --write-env file and port 0 (--platform-port 0 --secrets-port 0 --mesh-port 0)');
}

function ownsEnvFile(file: string): boolean {
  try {
    return parseEnvFile(fs.readFileSync(file, 'utf8'))[PID_KEY] === String(process.pid);
  } catch {
    return false;
  }
}

/**
 * `converge emulator --detach`: the same command in a child process of its own, returned from
 * once the three APIs listen (its env file written). Prints the `KEY=value` lines, the pid and how
 * to stop it.
 */
async function detach(opts: EmulatorCommandOptions, out: Output): Promise<number> {
  // A directory of its own (mkdtemp: created exclusively, mode 0700), never a predictable name in $TMPDIR.
  let own: string | undefined;
  const ownDir = () => (own ??= fs.mkdtempSync(path.join(os.tmpdir(), 'converge-emulator-')));
  const file = path.resolve(opts.writeEnv ?? path.join(ownDir(), 'emulator.env'));
  // The data directory holds tokens and secrets: owner-only, as the emulator itself creates it.
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const logFile = path.resolve(opts.dataDir ? path.join(opts.dataDir, 'emulator.log') : path.join(ownDir(), 'emulator.log'));
  fs.rmSync(file, { force: true });
  const args = process.argv.slice(2).filter((a) => a !== '--detach');
  if (!opts.writeEnv) args.push('--write-env', file);
  const log = openLog(logFile);
  const child = spawn(process.execPath, [process.argv[1], ...args], {
    detached: true, stdio: ['ignore', log, log], env: { ...process.env, [DETACHED_VARIABLE]: '1' },
  });
  fs.closeSync(log);
  let exited: number | null | undefined;
  child.once('exit', (code) => { exited = code; });
  try {
    // A hang guard, not a measure of speed: a stopped emulator ends the wait at once, and a busy CI runner
    // initialising PostgreSQL (--postgres) may need more than a minute.
    await waitForEnvFile(file, 300_000, () => (exited !== undefined
      ? `the emulator stopped before it was ready (exit ${exited}):\n${fs.readFileSync(logFile, 'utf8').trim()}` : undefined));
  } catch (e) {
    if (child.pid && isAlive(child.pid)) process.kill(child.pid, 'SIGTERM');
    throw e;
  }
  child.unref();
  process.stdout.write(fs.readFileSync(file, 'utf8'));
  out.info(`# converge emulator running in the background (pid ${child.pid}); env file ${file}, log ${logFile}`);
  out.info(`# stop it with: converge emulator stop ${file}   (or: kill ${child.pid})`);
  return 0;
}

/** Set in a detached emulator's environment: it then prints no token (its output is its log). */
const DETACHED_VARIABLE = 'CONVERGE_EMULATOR_DETACHED';

/**
 * Opens a detached emulator's log: never through a symbolic link (O_NOFOLLOW), owner-only (0600,
 * also when it existed with a wider mode), truncated rather than appended to.
 */
function openLog(file: string): number {
  const c = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, c.O_WRONLY | c.O_CREAT | c.O_TRUNC | c.O_NOFOLLOW, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new Error(`refusing to write the emulator log ${file}: it is a symbolic link`);
    throw e;
  }
  fs.fchmodSync(fd, 0o600);
  return fd;
}

/** `converge emulator wait FILE`: returns once FILE describes a running emulator (or fails after the timeout). */
export async function emulatorWait(file: string, opts: { timeout?: string }, out: Output): Promise<number> {
  const seconds = num(opts.timeout, '--timeout') ?? 60;
  await waitForEnvFile(file, seconds * 1000);
  out.info(`converge emulator ready (${file})`);
  return 0;
}

/** `converge emulator stop FILE`: stops the emulator that wrote FILE and waits until it is gone. */
export async function emulatorStop(file: string, out: Output): Promise<number> {
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist: no emulator wrote it, or it has stopped already`);
  const pid = Number(parseEnvFile(fs.readFileSync(file, 'utf8'))[PID_KEY]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`${file} names no emulator process (no ${PID_KEY} line)`);
  if (isAlive(pid)) {
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 300 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid)) throw new Error(`the emulator (pid ${pid}) did not stop within 30s`);
  }
  fs.rmSync(file, { force: true });
  out.info(`converge emulator stopped (pid ${pid})`);
  return 0;
}
