import * as fs from 'fs';
import { Emulator } from '../../emulator/emulator';
import { Output } from '../output';

export interface EmulatorCommandOptions {
  readonly platformPort?: string;
  readonly secretsPort?: string;
  readonly meshPort?: string;
  readonly dataDir?: string;
  readonly latencyMs?: string;
  readonly faultRate?: string;
  readonly faultRetryAfter?: string;
  readonly faultTimeoutMs?: string;
  readonly envFile?: string;
  readonly platformEdition?: string;
  readonly platformRateLimit?: string;
  readonly mount?: string[];
  readonly meshDatacenter?: string;
  readonly meshDatacenters?: string;
  readonly meshTrustDomain?: string;
}

function num(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} must be a non-negative number (got ${v})`);
  return n;
}

/** `converge emulator`: serves the three APIs until SIGINT or SIGTERM. */
export async function emulatorCommand(opts: EmulatorCommandOptions, out: Output): Promise<number> {
  const edition = opts.platformEdition ?? 'hosted';
  if (edition !== 'hosted' && edition !== 'self-hosted') throw new Error(`--platform-edition must be hosted or self-hosted (got ${edition})`);
  const mounts: Record<string, string> = {};
  for (const m of opts.mount ?? []) {
    const [type, mountPath] = m.split(':');
    if (!type || !mountPath) throw new Error(`--mount takes TYPE:PATH, e.g. database:db2 (got ${m})`);
    mounts[mountPath] = type === 'kv-v2' ? 'kv' : type;
  }
  const emulator = await Emulator.start({
    platformPort: num(opts.platformPort, '--platform-port'), secretsPort: num(opts.secretsPort, '--secrets-port'),
    meshPort: num(opts.meshPort, '--mesh-port'), dataDir: opts.dataDir, latencyMs: num(opts.latencyMs, '--latency-ms'),
    faultRate: num(opts.faultRate, '--fault-rate'), faultRetryAfterSeconds: num(opts.faultRetryAfter, '--fault-retry-after'),
    faultTimeoutMs: num(opts.faultTimeoutMs, '--fault-timeout-ms'), platformEdition: edition, platformRateLimit: num(opts.platformRateLimit, '--platform-rate-limit'),
    secretsMounts: mounts, meshDatacenter: opts.meshDatacenter,
    meshDatacenters: opts.meshDatacenters ? opts.meshDatacenters.split(',').filter(Boolean) : undefined, meshTrustDomain: opts.meshTrustDomain,
  });
  if (opts.envFile) fs.writeFileSync(opts.envFile, emulator.envFile(), { mode: 0o600 });
  process.stdout.write(emulator.envFile());
  out.info(out.c.dim(`# converge emulator running${opts.dataDir ? ` (data in ${opts.dataDir})` : ''}; stop with Ctrl-C`));
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await emulator.stop();
  return 0;
}
