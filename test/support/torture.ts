import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { CLI, cliAsync, CliResult, tempDir } from './harness';

/** A free TCP port (so that a restarted emulator keeps its addresses). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** The emulator as a child process with a data directory, so that it can be killed and restarted. */
export class EmulatorProcess {
  public static async start(extraArgs: string[] = []): Promise<EmulatorProcess> {
    const dir = tempDir('converge-emu-');
    const ports = [await freePort(), await freePort(), await freePort()];
    const e = new EmulatorProcess(dir, ports, extraArgs);
    await e.launch();
    return e;
  }

  public env: Record<string, string> = {};
  private child?: ChildProcess;

  private constructor(public readonly dir: string, private readonly ports: number[], private readonly extraArgs: string[]) {}

  public async launch(): Promise<void> {
    const envFile = path.join(this.dir, 'env');
    fs.rmSync(envFile, { force: true });
    this.child = spawn(CLI, ['emulator', '--platform-port', String(this.ports[0]), '--secrets-port', String(this.ports[1]),
      '--mesh-port', String(this.ports[2]), '--data-dir', path.join(this.dir, 'data'), '--env-file', envFile,
      '--platform-rate-limit', '0', ...this.extraArgs], { stdio: 'ignore' });
    for (let i = 0; i < 200 && !fs.existsSync(envFile); i++) await new Promise((r) => setTimeout(r, 25));
    const text = fs.readFileSync(envFile, 'utf8');
    this.env = Object.fromEntries(text.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  }

  /** SIGKILL: no chance to flush anything it has not already made durable. */
  public async kill(): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((r) => { c.on('close', () => r()); c.kill('SIGKILL'); });
  }

  public async stop(): Promise<void> {
    await this.kill();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface TortureReport {
  readonly rounds: number;
  readonly killedMidApply: number;
  readonly emulatorRestarts: number;
  readonly final: CliResult;
}

/**
 * Runs `converge apply` and kills it with SIGKILL after a random delay, `rounds` times, each
 * followed by the next apply; every `emulatorEvery` rounds the emulator is killed too and
 * restarted from its data directory. Then one apply runs to the end.
 */
export async function torture(opts: { synthDir: string; env: NodeJS.ProcessEnv; emulator: EmulatorProcess; rounds: number;
  emulatorEvery?: number; maxDelayMs?: number; log?: (m: string) => void }): Promise<TortureReport> {
  let killedMidApply = 0;
  let emulatorRestarts = 0;
  for (let round = 1; round <= opts.rounds; round++) {
    const delay = 50 + Math.floor(Math.random() * (opts.maxDelayMs ?? 1500));
    const env = { ...opts.env, ...opts.emulator.env };
    const p = spawn(CLI, ['apply', '--synth-dir', opts.synthDir, '--auto-approve'], { env, stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => p.on('close', (code) => r(code)));
    const timer = setTimeout(() => p.kill('SIGKILL'), delay);
    const code = await exited;
    clearTimeout(timer);
    if (code === null) killedMidApply++;
    if (opts.emulatorEvery && round % opts.emulatorEvery === 0) {
      await opts.emulator.kill();
      await opts.emulator.launch();
      emulatorRestarts++;
    }
    opts.log?.(`round ${round}: ${code === null ? `killed after ${delay} ms` : `finished (exit ${code})`}`);
  }
  const final = await cliAsync(['apply', '--synth-dir', opts.synthDir, '--auto-approve'], { ...opts.env, ...opts.emulator.env });
  return { rounds: opts.rounds, killedMidApply, emulatorRestarts, final };
}

/** GET with a token, as JSON. */
export async function getJson(url: string, headers: Record<string, string>): Promise<any> {
  const res = await fetch(url, { headers });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return res.json();
}

/** Counts what is on the APIs, to prove there is no duplicate and nothing missing. */
export async function countObjects(env: Record<string, string>): Promise<Record<string, number>> {
  const p = { authorization: `Bearer ${env.PLATFORM_TOKEN}` };
  const orgs = ((await getJson(`${env.PLATFORM_ADDRESS}/api/v2/organizations?q=t-org-`, p))?.data ?? []) as { id: string }[];
  let oauth = 0;
  let pools = 0;
  for (const o of orgs) {
    oauth += ((await getJson(`${env.PLATFORM_ADDRESS}/api/v2/organizations/${o.id}/oauth-clients`, p))?.data ?? []).length;
    pools += ((await getJson(`${env.PLATFORM_ADDRESS}/api/v2/organizations/${o.id}/agent-pools`, p))?.data ?? []).length;
  }
  const kv = ((await getJson(`${env.SECRETS_ADDR}/v1/secret/metadata/torture/?list=true`, { 'x-secrets-token': env.SECRETS_TOKEN }))?.data?.keys ?? []).length;
  const mesh = ((await getJson(`${env.MESH_HTTP_ADDR}/v1/config/service-defaults`, { 'x-mesh-token': env.MESH_HTTP_TOKEN })) ?? [])
    .filter((e: { Name: string }) => e.Name.startsWith('t-svc-')).length;
  const meshOf = async (kind: string) => ((await getJson(`${env.MESH_HTTP_ADDR}/v1/config/${kind}`, { 'x-mesh-token': env.MESH_HTTP_TOKEN })) ?? [])
    .filter((e: { Name: string }) => e.Name.startsWith('t-svc-')).length;
  return {
    'platform.Organization': orgs.length, 'platform.OAuthClient': oauth, 'platform.AgentPool': pools, 'secrets.KvSecret': kv,
    'mesh.ServiceDefaults': mesh, 'mesh.ServiceResolver': await meshOf('service-resolver'), 'mesh.ServiceSplitter': await meshOf('service-splitter'),
  };
}
