import * as fs from 'fs';
import * as path from 'path';
import { DesiredStack } from '../core/model';
import { convergeDir } from '../core/crypto/state-key';
import { LocalBackend } from '../core/state/local-backend';
import { StateBackend } from '../core/state/state-model';
import { newSynthSealKey } from '../core/crypto/synth-seal';
import { findAppConfig, readSynthInput, runApp } from '../core/synth/read-synth';
import { synthCacheEnabled, synthesizeCached } from '../core/synth/synth-cache';

/** Options shared by the commands that read the app. */
export interface AppOptions {
  readonly stack?: string;
  readonly synthDir?: string;
  /** `--synth-env NAME`: more variables the app is given (beside the allow-list and CONVERGE_SYNTH_ENV). */
  readonly synthEnv?: readonly string[];
  /** `--no-synth-cache` (false): run the app even when nothing it depends on changed (also CONVERGE_SYNTH_CACHE=0). */
  readonly synthCache?: boolean;
}

/** Synthesizes the app (or reads `--synth-dir`) and returns every stack's desired state. */
export function loadStacks(opts: Pick<AppOptions, 'synthDir' | 'synthEnv' | 'synthCache'>): DesiredStack[] {
  if (opts.synthDir) return readSynthInput(path.resolve(opts.synthDir));
  const cfg = findAppConfig(process.cwd());
  if (!cfg) throw new Error('no cdktf.json here or above: run converge in a cdktf app, or pass --synth-dir');
  if (synthCacheEnabled(opts.synthCache)) return synthesizeCached(cfg, opts.synthEnv ?? [], (line) => process.stderr.write(`${line}\n`));
  const sealKey = newSynthSealKey();
  return readSynthInput(runApp(cfg, cfg.output, sealKey, opts.synthEnv ?? []), sealKey);
}

/**
 * The stacks a command works on: `--stack NAME` (one), the only stack, or for the commands that take
 * several (`plan`, `apply`, `destroy`), each `--stack` given, where `*` matches any characters
 * (`--stack '*'`: every stack, as `cdktf deploy '*'`).
 */
export function selectStacks(stacks: DesiredStack[], wanted?: string | readonly string[], several = false): DesiredStack[] {
  const names = () => stacks.map((x) => x.stack).join(', ') || 'none';
  // One name (the commands that work on one stack) is taken literally; a list may hold patterns.
  const patterns = typeof wanted === 'string' ? [wanted] : wanted ?? [];
  const matcher = (w: string) => (typeof wanted === 'string' ? (n: string) => n === w
    : (n: string) => new RegExp(`^${w.split('*').map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(n));
  if (patterns.length) {
    const chosen = new Set<string>();
    for (const w of patterns) {
      const found = stacks.filter((x) => matcher(w)(x.stack));
      if (!found.length) throw new Error(`no stack "${w}" (stacks: ${names()})`);
      found.forEach((x) => chosen.add(x.stack));
    }
    return stacks.filter((x) => chosen.has(x.stack));
  }
  if (stacks.length > 1) {
    throw new Error(`the app has several stacks (${names()}): choose one with --stack` +
      (typeof wanted === 'string' || !several ? '' : ` (plan, apply and destroy take several: --stack a --stack b, or --stack '*' for all)`));
  }
  return stacks;
}

/** Stacks in the order a run reconciles them (the engine's one reconcile path). */
export { inDependencyOrder } from '../core/engine/reconcile/stack-order';

/** The directory of the local state backend that `CONVERGE_STATE` chooses; undefined for a shared backend. */
export function localStateDir(): string | undefined {
  const spec = process.env.CONVERGE_STATE;
  if (!spec || spec === 'local') return convergeDir();
  if (spec.startsWith('file:') || spec.startsWith('/') || spec.startsWith('.')) return path.resolve(spec.replace(/^file:/, ''));
  return undefined;
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
