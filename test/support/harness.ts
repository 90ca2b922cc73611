import { spawn, spawnSync, SpawnSyncReturns } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { TerraformStack } from 'cdktf';
import type { Emulator, EmulatorOptions } from '../../lib/bundled-emulator/bundled-emulator';

export const ROOT = path.resolve(__dirname, '../..');

// One state key shared by this test process (which seals `SecretValue.unsafePlainText` at synth) and the CLI runs.
process.env.CONVERGE_STATE_KEY ??= crypto.randomBytes(32).toString('hex');
export const CLI = path.join(ROOT, 'bin', 'converge');

/** A temporary directory removed by `cleanup()`. */
export function tempDir(prefix = 'converge-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Synthesizes a one-stack cdktf app built by `build` into a fresh directory; returns the directory. */
export function synthApp(build: (stack: TerraformStack) => void, stackName = 'e2e', outdir = tempDir('converge-synth-')): string {
  // cdktf and the emulators are loaded by the tests that use them: a test file that only runs the CLI (or reads a
  // file) does not load them, since jest evaluates every module again in each test file (issue 34 item 5).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { App, TerraformStack } = require('cdktf') as typeof import('cdktf');
  const app = new App({ outdir });
  const stack = new TerraformStack(app, stackName);
  build(stack);
  app.synth();
  return outdir;
}

/** A running emulator plus the environment a CLI run needs (with its own state directory). */
export interface TestWorld {
  readonly emulator: Emulator;
  readonly env: NodeJS.ProcessEnv;
  readonly dir: string;
  stop(): Promise<void>;
}

export async function startWorld(options: EmulatorOptions = {}, extraEnv: Record<string, string> = {}): Promise<TestWorld> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Emulator } = require('../../lib/bundled-emulator/bundled-emulator') as typeof import('../../lib/bundled-emulator/bundled-emulator');
  const emulator = await Emulator.start({ platformPort: 0, secretsPort: 0, meshPort: 0, platformRateLimit: 0, ...options });
  const dir = tempDir();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1',
    ...emulator.env, CONVERGE_DIR: path.join(dir, '.converge'), CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY, ...extraEnv,
  };
  return { emulator, env, dir, stop: async () => { await emulator.stop(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real CLI (built into dist/) synchronously. */
export function cli(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): CliResult {
  const r: SpawnSyncReturns<string> = spawnSync(CLI, args, { env, cwd, encoding: 'utf8', timeout: 240_000 }); // a hang guard only
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the real CLI without blocking the event loop (the emulator lives in this process). */
export function cliAsync(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<CliResult> {
  return new Promise((resolve) => {
    const p = spawn(CLI, args, { env, cwd });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Reads every file under a directory (for secret hygiene checks). */
export function allFiles(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p); else out.push({ file: p, text: fs.readFileSync(p, 'utf8') });
    }
  };
  walk(dir);
  return out;
}
