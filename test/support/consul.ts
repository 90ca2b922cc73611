import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { freePort } from '../../lib/core/free-port';
export { freePort };

/** A real Consul agent in dev mode on free ports (see ../shared/tools/README.md). */
export interface RealConsul {
  /** `http://127.0.0.1:<port>` */
  readonly address: string;
  /** The management token when ACLs are on (a bootstrap token), else undefined. */
  readonly managementToken?: string;
  /** The agent's log so far (for a failing test's message). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts `consul agent -dev` on free ports and waits for a leader. With `acls`, the agent enforces
 * ACLs with a default policy of deny and a known initial management token (`managementToken`).
 */
export async function startConsul(binary: string, o: { acls?: boolean } = {}): Promise<RealConsul> {
  const [http, lan, wan, server] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-consul-'));
  const managementToken = o.acls ? 'b6a0b3a2-5c63-4a8e-9d1e-2f6c9a6d3e11' : undefined;
  const args = ['agent', '-dev', '-client', '127.0.0.1', '-bind', '127.0.0.1', '-http-port', String(http), '-grpc-port', '-1', '-grpc-tls-port', '-1',
    '-dns-port', '-1', '-serf-lan-port', String(lan), '-serf-wan-port', String(wan), '-server-port', String(server), '-data-dir', dir];
  if (o.acls) {
    fs.writeFileSync(path.join(dir, 'acl.hcl'),
      `acl { enabled = true\n default_policy = "deny"\n enable_token_persistence = false\n tokens { initial_management = "${managementToken}" } }\n`);
    args.push('-config-file', path.join(dir, 'acl.hcl'));
  }
  let log = '';
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => { log += d; });
  child.stderr!.on('data', (d) => { log += d; });
  const address = `http://127.0.0.1:${http}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 240_000; // against a hang, not a measure of speed (a busy machine starts it slowly)
  for (;;) {
    if (child.exitCode !== null) { await stop(); throw new Error(`consul exited (${child.exitCode}):\n${log}`); }
    try {
      const r = await fetch(`${address}/v1/status/leader`);
      const leader = r.ok ? await r.json() as string : '';
      if (leader) {
        // With ACLs, the management token works only once the ACL system has initialised.
        if (!managementToken || (await fetch(`${address}/v1/acl/token/self`, { headers: { 'X-Consul-Token': managementToken } })).ok) break;
      }
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { await stop(); throw new Error(`consul did not elect a leader in 240 s:\n${log}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { address, managementToken, log: () => log, stop };
}
