import { ChildProcess, spawn } from 'child_process';
import { realTools } from './real-tools';
import { freePort } from '../../lib/core/free-port';

/** A throwaway OpenBao dev server (`../shared/tools/`), with the database engine enabled at `database/`. */
export interface TestOpenBao {
  /** `http://127.0.0.1:<port>` */
  readonly address: string;
  /** The dev root token (sent as `X-Vault-Token`). */
  readonly token: string;
  stop(): Promise<void>;
}

/**
 * Starts `bao server -dev` on a free port (the binary `realTools().BAO` names: callers are inside
 * `describeWithTool('BAO', …)`), waits until it answers its health check and enables the database
 * engine. `stop()` ends it.
 */
export async function startOpenBaoForLeases(): Promise<TestOpenBao> {
  const bao = realTools().BAO;
  if (!bao) throw new Error('BAO is not available');
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const token = 'root';
  const proc: ChildProcess = spawn(bao, ['server', '-dev', `-dev-root-token-id=${token}`, `-dev-listen-address=127.0.0.1:${port}`],
    { stdio: 'ignore', env: { ...process.env, HOME: process.env.HOME ?? '/tmp' } });
  const orphanGuard = () => { proc.kill('SIGKILL'); };
  process.on('exit', orphanGuard);
  const stop = async () => {
    process.off('exit', orphanGuard);
    if (proc.exitCode !== null) return;
    const gone = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    await gone;
  };
  try {
    for (let i = 0; ; i++) {
      try {
        const r = await fetch(`${address}/v1/sys/health`);
        if (r.status === 200) break;
      } catch { /* not listening yet */ }
      if (i > 4800 || proc.exitCode !== null) throw new Error(`OpenBao did not start on ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const r = await fetch(`${address}/v1/sys/mounts/database`, {
      method: 'POST', headers: { 'x-vault-token': token, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'database' }),
    });
    if (r.status !== 204) throw new Error(`enabling the database engine answered ${r.status}: ${await r.text()}`);
  } catch (e) {
    await stop();
    throw e;
  }
  return { address, token, stop };
}

