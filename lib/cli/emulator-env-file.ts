import * as fs from 'fs';
import * as net from 'net';
import { writeFileDurably } from '../core/durable-write';

/** The line of an emulator's env file that names its process, for `converge emulator stop FILE`. */
export const PID_KEY = 'CONVERGE_EMULATOR_PID';

/**
 * Writes the env file atomically (the shared durable write: exclusive random temporary file, mode
 * 0600, renamed over it): a script that sources it never reads half of it, and a file planted in a
 * directory others can write never receives the tokens. Written only once all three APIs listen.
 */
export function writeEnvFileAtomically(file: string, text: string): void {
  writeFileDurably(file, text, { mode: 0o600 });
}

/** The `KEY=value` lines of an env file (comments and blank lines skipped). */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  return env;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function accepts(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const u = new URL(address);
    const socket = net.connect({ host: u.hostname, port: Number(u.port) || 80 });
    const done = (ok: boolean) => { socket.destroy(); resolve(ok); };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(2000, () => done(false));
  });
}

/**
 * Whether FILE describes a running emulator: it exists, the process it names is alive and the
 * three addresses accept connections (a file left by an emulator that is gone does not count).
 */
export async function envFileReady(file: string): Promise<Record<string, string> | undefined> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const env = parseEnvFile(text);
  const pid = Number(env[PID_KEY]);
  if (env[PID_KEY] !== undefined && !(Number.isInteger(pid) && isAlive(pid))) return undefined;
  const addresses = [env.PLATFORM_ADDRESS, env.SECRETS_ADDR, env.MESH_HTTP_ADDR];
  if (addresses.some((a) => !a)) return undefined;
  const ok = await Promise.all(addresses.map((a) => accepts(a)));
  return ok.every(Boolean) ? env : undefined;
}

/** Polls until FILE describes a running emulator; throws after `timeoutMs` or when `gaveUp()` says so. */
export async function waitForEnvFile(file: string, timeoutMs: number, gaveUp: () => string | undefined = () => undefined): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const env = await envFileReady(file);
    if (env) return env;
    const why = gaveUp();
    if (why) throw new Error(why);
    if (Date.now() > deadline) throw new Error(`no running emulator wrote ${file} within ${Math.round(timeoutMs / 1000)}s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
