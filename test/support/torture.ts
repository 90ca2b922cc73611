import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { waitForEnvFile } from '../../lib/cli/emulator-env-file';
import { newSeed, seededRandom } from '../../lib/core/emulator-kit/seeded-random';
import { CLI, cliAsync, CliResult, tempDir } from './harness';
import { freePort } from '../../lib/core/free-port';
export { freePort };

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
    // Ready when the env file names three APIs that answer: however long a busy machine takes, unless it exited.
    const child = this.child;
    this.env = await waitForEnvFile(envFile, 240_000, () => (child.exitCode !== null ? `the emulator exited (${child.exitCode}) before it was ready` : undefined));
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
  /** The seed of the kill delays: `seed` (or `CONVERGE_FAULT_SEED`) replays them. */
  readonly seed: string;
  readonly rounds: number;
  readonly killedMidApply: number;
  readonly emulatorRestarts: number;
  readonly final: CliResult;
}

/**
 * Runs `converge apply` and kills it with SIGKILL after a random delay, `rounds` times, each
 * followed by the next apply; every `emulatorEvery` rounds the emulator is killed too and
 * restarted from its data directory. Then one apply runs to the end. The delays come from
 * `seed` (default `CONVERGE_FAULT_SEED`, else a new one), logged first: the same seed, the same delays.
 */
export async function torture(opts: { synthDir: string; env: NodeJS.ProcessEnv; emulator: EmulatorProcess; rounds: number;
  emulatorEvery?: number; maxDelayMs?: number; seed?: string; log?: (m: string) => void }): Promise<TortureReport> {
  const seed = opts.seed || process.env.CONVERGE_FAULT_SEED || newSeed();
  const delays = killDelays(seed, opts.rounds, opts.maxDelayMs ?? 1500);
  (opts.log ?? ((m: string) => process.stderr.write(`${m}\n`)))(`torture: kill delays from seed ${seed} (replay with CONVERGE_FAULT_SEED=${seed})`);
  let killedMidApply = 0;
  let emulatorRestarts = 0;
  for (let round = 1; round <= opts.rounds; round++) {
    const delay = delays[round - 1];
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
  return { seed, rounds: opts.rounds, killedMidApply, emulatorRestarts, final };
}

/** The delay (ms) after which each round's apply is killed: 50 ms plus up to `maxDelayMs`, from `seed`. */
export function killDelays(seed: string, rounds: number, maxDelayMs: number): number[] {
  const random = seededRandom(`torture/${seed}`);
  return Array.from({ length: rounds }, () => 50 + Math.floor(random() * maxDelayMs));
}
