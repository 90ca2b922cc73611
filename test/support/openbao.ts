import { ChildProcess, execFile, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import { freePort } from '../../lib/core/free-port';

/** A throwaway OpenBao dev server (the real secrets service, built from source in ../shared/tools). */
export interface TestOpenBao {
  /** `http://127.0.0.1:<port>` */
  readonly address: string;
  /** The dev server's root token. */
  readonly rootToken: string;
  /** Runs the real `bao` CLI against it (as root), e.g. `bao(['secrets', 'enable', 'totp'])`. */
  bao(args: string[]): Promise<string>;
  /** A request below `/v1` with the root token (or `token`), in OpenBao's own header. */
  api(method: string, p: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

const ROOT_TOKEN = 'root';

/**
 * Starts `"$BAO" server -dev -dev-root-token-id=root -dev-listen-address=127.0.0.1:PORT` on a free
 * port (KV version 2 at `secret/`), waits until `sys/health` answers, and enables `mounts` (type ->
 * path, e.g. `{ totp: 'totp', database: 'database' }`; `kv` is version 2) with the real CLI.
 */
export async function startOpenBao(binary: string, mounts: Record<string, string> = {}): Promise<TestOpenBao> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-bao-'));
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const address = `http://127.0.0.1:${port}`;
    const proc = spawn(binary, ['server', '-dev', `-dev-root-token-id=${ROOT_TOKEN}`, `-dev-listen-address=127.0.0.1:${port}`],
      { env: { PATH: process.env.PATH, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    proc.stdout!.on('data', (d) => { log += d; });
    proc.stderr!.on('data', (d) => { log += d; });
    const orphanGuard = () => { proc.kill('SIGKILL'); };
    process.on('exit', orphanGuard);
    try {
      await waitHealthy(address, proc, () => log);
    } catch (e) {
      lastError = e;
      process.off('exit', orphanGuard);
      await stop(proc);
      continue; // most likely the port was taken between probing and binding
    }
    const env = { PATH: process.env.PATH, HOME: home, BAO_ADDR: address, BAO_TOKEN: ROOT_TOKEN };
    const bao = async (args: string[]) => (await promisify(execFile)(binary, args, { env })).stdout;
    const api = async (method: string, p: string, body?: unknown, token = ROOT_TOKEN) => {
      const r = await fetch(`${address}/v1/${p}`, {
        method, headers: { 'x-vault-token': token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : undefined };
    };
    // `kv` is version 2 here, as the spec's KV engine (the CLI's default is version 1).
    for (const [type, at] of Object.entries(mounts)) await bao(['secrets', 'enable', `-path=${at}`, ...(type === 'kv' ? ['-version=2'] : []), type]);
    return {
      address, rootToken: ROOT_TOKEN, bao, api,
      stop: async () => {
        process.off('exit', orphanGuard);
        await stop(proc);
        fs.rmSync(home, { recursive: true, force: true });
      },
    };
  }
  fs.rmSync(home, { recursive: true, force: true });
  throw lastError;
}

async function waitHealthy(address: string, proc: ChildProcess, log: () => string): Promise<void> {
  // 4 minutes: against a hang, not a measure of speed (a busy machine starts it slowly).
  for (let i = 0; i < 2400; i++) {
    if (proc.exitCode !== null) throw new Error(`OpenBao exited (${proc.exitCode}) before answering:\n${log()}`);
    try {
      const r = await fetch(`${address}/v1/sys/health`);
      if (r.status === 200) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`OpenBao did not answer on ${address}:\n${log()}`);
}

function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.on('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

