import * as fs from 'fs';
import * as path from 'path';
import { DesiredStack } from '../core/model';
import { convergeDir } from '../core/crypto/state-key';
import { LocalBackend } from '../core/state/local-backend';
import { StateBackend } from '../core/state/state-model';
import { newSynthSealKey } from '../core/crypto/synth-seal';
import { findAppConfig, readSynthDir, runApp } from '../core/synth/read-synth';

/** Options shared by the commands that read the app. */
export interface AppOptions {
  readonly stack?: string;
  readonly synthDir?: string;
}

/** Synthesizes the app (or reads `--synth-dir`) and returns every stack's desired state. */
export function loadStacks(opts: AppOptions): DesiredStack[] {
  if (opts.synthDir) return readSynthDir(path.resolve(opts.synthDir));
  const cfg = findAppConfig(process.cwd());
  if (!cfg) throw new Error('no cdktf.json here or above: run converge in a cdktf app, or pass --synth-dir');
  const sealKey = newSynthSealKey();
  return readSynthDir(runApp(cfg, cfg.output, sealKey), sealKey);
}

/** The stacks a command works on: `--stack`, or the only one. */
export function selectStacks(stacks: DesiredStack[], wanted?: string): DesiredStack[] {
  if (wanted) {
    const s = stacks.find((x) => x.stack === wanted);
    if (!s) throw new Error(`no stack "${wanted}" (stacks: ${stacks.map((x) => x.stack).join(', ') || 'none'})`);
    return [s];
  }
  if (stacks.length > 1) throw new Error(`the app has several stacks (${stacks.map((x) => x.stack).join(', ')}): choose one with --stack`);
  return stacks;
}

/** The state backend chosen by `CONVERGE_STATE` (default: local files under `.converge/`). */
export async function openBackend(): Promise<StateBackend> {
  const spec = process.env.CONVERGE_STATE;
  if (!spec || spec === 'local') return new LocalBackend(convergeDir());
  if (spec.startsWith('postgres://') || spec.startsWith('postgresql://')) {
    if (!process.env.CONVERGE_STATE_KEY) throw new Error('a shared state backend needs CONVERGE_STATE_KEY (the key that protects sensitive values in state)');
    const mod = path.join(__dirname, '../core/state/postgres-backend.js');
    if (!fs.existsSync(mod)) throw new Error('the PostgreSQL state backend is not available in this build');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PostgresBackend } = require(mod) as { PostgresBackend: new (url: string) => StateBackend };
    return new PostgresBackend(spec);
  }
  if (spec.startsWith('file:') || spec.startsWith('/') || spec.startsWith('.')) return new LocalBackend(path.resolve(spec.replace(/^file:/, '')));
  throw new Error(`CONVERGE_STATE "${spec.replace(/\/\/[^@]*@/, '//***@')}" is not a known backend (local, a directory, or postgres://…)`);
}
