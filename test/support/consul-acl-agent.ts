import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { freePort } from '../../lib/core/free-port';

/** A real Consul dev agent with ACLs on and an initial management token (as the emulator starts). */
export interface ConsulAclAgent {
  readonly address: string;
  readonly managementToken: string;
  stop(): Promise<void>;
}

/** Starts `consul agent -dev` on free ports with `acl.tokens.initial_management`; waits for a leader. */
export async function startConsulAclAgent(binary: string): Promise<ConsulAclAgent> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'consul-acl-'));
  const managementToken = '4b1a6f3e-8c0d-4f6e-9a2b-1d3c5e7f9a0b';
  fs.writeFileSync(path.join(dir, 'acl.hcl'),
    `acl {\n  enabled = true\n  default_policy = "deny"\n  tokens { initial_management = "${managementToken}" }\n}\n`);
  const [http, lan, wan, server] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const child: ChildProcess = spawn(binary, ['agent', '-dev', '-bind', '127.0.0.1', '-config-file', path.join(dir, 'acl.hcl'),
    '-http-port', String(http), '-grpc-port', '-1', '-dns-port', '-1', '-serf-lan-port', String(lan), '-serf-wan-port', String(wan),
    '-server-port', String(server), '-data-dir', path.join(dir, 'data')], { stdio: 'ignore' });
  const address = `http://127.0.0.1:${http}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // 4 minutes: against a hang, not a measure of speed (a busy machine starts it slowly).
  for (let i = 0; i < 960; i++) {
    try {
      const r = await fetch(`${address}/v1/status/leader`);
      if (r.ok && (await r.text()).includes(':')) return { address, managementToken, stop };
    } catch { /* not listening yet */ }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error('consul did not elect a leader');
}
