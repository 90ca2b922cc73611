import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Pool } from 'undici';
import { waitForEnvFile } from '../../lib/cli/emulator-env-file';
import { CLI, tempDir } from '../support/harness';

/** `converge emulator --data-dir` in its own process; resolves once its env file is written. */
async function startEmulatorProcess(dataDir: string): Promise<{ proc: ChildProcess; env: Record<string, string> }> {
  const envFile = path.join(tempDir('emu-kill-env-'), 'emulator.env');
  const proc = spawn(CLI, ['emulator', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0', '--platform-rate-limit', '0',
    '--data-dir', dataDir, '--env-file', envFile], { stdio: 'ignore' });
  // However long a busy machine takes to start it (issue 34 item 5), unless it exited.
  const env = await waitForEnvFile(envFile, 240_000, () => (proc.exitCode !== null ? `the emulator exited (${proc.exitCode}) before it was ready` : undefined));
  return { proc, env };
}

const killed = (p: ChildProcess) => new Promise<void>((r) => { if (p.exitCode !== null || p.signalCode) r(); else p.once('exit', () => r()); });

interface Api { pool: Pool; headers: Record<string, string> }

/**
 * Writes from 10 connections per API until the emulator dies; every write answered 2xx is recorded.
 * Each write creates a new object (a KV key, a mesh entry, an organization) so that it can be counted.
 */
async function load(apis: Record<'secrets' | 'mesh' | 'platform', Api>, acked: Record<string, string[]>): Promise<void> {
  const writers: Record<string, (i: number) => { path: string; method: string; body: unknown; id: string }> = {
    secrets: (i) => ({ method: 'POST', path: `/v1/secret/data/kill/k${i}`, body: { data: { v: `value-${i}` } }, id: `kill/k${i}` }),
    mesh: (i) => ({ method: 'PUT', path: '/v1/config', body: { Kind: 'service-defaults', Name: `svc${i}`, Protocol: 'http' }, id: `svc${i}` }),
    platform: (i) => ({ method: 'POST', path: '/api/v2/organizations', body: { data: { type: 'organizations', attributes: { name: `org-${i}`, email: `o${i}@example.com` } } }, id: `org-${i}` }),
  };
  await Promise.all(Object.entries(apis).flatMap(([name, api]) => {
    let next = 0;
    return Array.from({ length: 10 }, async () => {
      for (;;) {
        const w = writers[name](next++);
        try {
          const r = await api.pool.request({ method: w.method as 'POST', path: w.path, headers: api.headers, body: JSON.stringify(w.body) });
          await r.body.text();
          if (r.statusCode >= 200 && r.statusCode < 300) acked[name].push(w.id);
        } catch {
          return; // the emulator is gone
        }
      }
    });
  }));
}

function pools(env: Record<string, string>): Record<'secrets' | 'mesh' | 'platform', Api> {
  return {
    secrets: { pool: new Pool(env.SECRETS_ADDR, { connections: 10 }), headers: { 'x-secrets-token': env.SECRETS_TOKEN, 'content-type': 'application/json' } },
    mesh: { pool: new Pool(env.MESH_HTTP_ADDR, { connections: 10 }), headers: { 'x-mesh-token': env.MESH_HTTP_TOKEN, 'content-type': 'application/json' } },
    platform: { pool: new Pool(env.PLATFORM_ADDRESS, { connections: 10 }), headers: { authorization: `Bearer ${env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' } },
  };
}

test('SIGKILL mid-load loses no write that was answered 2xx (all three APIs)', async () => {
  const dataDir = tempDir('emu-kill-data-');
  const first = await startEmulatorProcess(dataDir);
  const apis = pools(first.env);
  const acked: Record<string, string[]> = { secrets: [], mesh: [], platform: [] };
  const loading = load(apis, acked);
  // Kill once each API has acknowledged a good number of writes (no timing: counts).
  while (acked.secrets.length < 300 || acked.mesh.length < 100 || acked.platform.length < 50) await new Promise((r) => setTimeout(r, 5));
  first.proc.kill('SIGKILL');
  await killed(first.proc);
  await loading;
  await Promise.all(Object.values(apis).map((a) => a.pool.destroy()));

  const second = await startEmulatorProcess(dataDir);
  const again = pools(second.env);
  try {
    const missing: string[] = [];
    const get = async (api: Api, p: string) => { const r = await api.pool.request({ method: 'GET', path: p, headers: api.headers }); const body = await r.body.text(); return { status: r.statusCode, body }; };
    for (const id of acked.secrets) {
      const r = await get(again.secrets, `/v1/secret/data/${id}`);
      if (r.status !== 200 || JSON.parse(r.body).data.data.v !== `value-${id.slice('kill/k'.length)}`) missing.push(`secrets ${id}`);
    }
    for (const id of acked.mesh) if ((await get(again.mesh, `/v1/config/service-defaults/${id}`)).status !== 200) missing.push(`mesh ${id}`);
    for (const id of acked.platform) if ((await get(again.platform, `/api/v2/organizations/${id}`)).status !== 200) missing.push(`platform ${id}`);
    expect({ checked: acked.secrets.length + acked.mesh.length + acked.platform.length, missing }).toEqual({ checked: expect.any(Number), missing: [] });
    expect(acked.secrets.length).toBeGreaterThanOrEqual(300);
  } finally {
    await Promise.all(Object.values(again).map((a) => a.pool.destroy()));
    second.proc.kill('SIGTERM');
    await killed(second.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
