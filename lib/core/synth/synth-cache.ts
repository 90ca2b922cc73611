import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { DesiredStack } from '../model';
import { authenticate, convergeDir, stateKeySource } from '../crypto/state-key';
import { newSynthSealKey, resealUnderStateKey, SYNTH_SEAL_VARIABLE } from '../crypto/synth-seal';
import { AppConfig, appRunEnvironment, readSynthInput, runApp } from './read-synth';
import { withheldWarning } from './withheld-env';

/**
 * An unchanged app is not synthesized again, the way a build tool caches a step: the synthesized
 * output is kept under the state directory (owner-only), keyed by everything the output can depend
 * on: the app's files, the lockfiles, the app's command, the environment the app is given (names and
 * values: the allow-list, `--synth-env`), converge's version and the state key.
 *
 * The app's files are every file under the app directory except the directories of tools and
 * outputs below (rather than the files git tracks: a file the user has just created and not yet
 * added changes the synth too, and the app need not be in a repository).
 *
 * The key is an HMAC under the state key: the values of the environment are in it, and a guess of a
 * low-entropy value cannot be checked against it without the key. Nothing of the environment is
 * written in clear. The cached files are the synthesized output itself, with the values that the app
 * sealed under the one-run key sealed under the state key instead, as an app synthesized on its own
 * (`--synth-dir`) seals them: no more than the output holds.
 */

/**
 * Directories that are not the app's source: dependencies (their lockfile stands for them), version
 * control, outputs and tools' caches. Build directories (`bin`, `target`, `build`) are hashed: a
 * name like `bin` holds the app's source in some layouts, and a changed output only costs a synth.
 */
const NOT_SOURCE = new Set([
  'node_modules', '.git', '.hg', '.svn', '.converge', 'cdktf.out', '.terraform',
  '.venv', 'venv', '__pycache__', '.pytest_cache', '.mypy_cache', '.gradle',
]);
/** Lockfiles looked for above the app directory too (a workspace's root), and npm's record of what it installed. */
const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock',
  'poetry.lock', 'Pipfile.lock', 'uv.lock', 'go.sum', 'packages.lock.json'];
/** Beyond these, the app directory is not hashed and the app simply runs (hashing would cost more than it saves). */
const MAX_FILES = 20_000;
const MAX_BYTES = 256 * 1024 * 1024;

/** The variable that turns the cache off (`0`, `false`, `off`, `no`), as `--no-synth-cache` does. */
export const SYNTH_CACHE_VARIABLE = 'CONVERGE_SYNTH_CACHE';

/** Whether the synthesis cache is on: `--no-synth-cache` (false) or `CONVERGE_SYNTH_CACHE=0` turn it off. */
export function synthCacheEnabled(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (flag === false) return false;
  return !/^(0|false|off|no)$/i.test(env[SYNTH_CACHE_VARIABLE] ?? '');
}

/** What an entry records beside the output: its key, and names only (never values) of the environment. */
interface EntryMeta {
  readonly key: string;
  /** Variables set but withheld from the app when it ran: a new one may be read by the app, so it is run again. */
  readonly withheld: string[];
  /** Withheld variables the app read: warned about again while they are set. */
  readonly read: string[];
}

/**
 * The app's stacks as `runApp` + `readSynthInput` give them, from the cache when nothing the output
 * depends on changed. `warn` hears the same warnings as a run of the app gives.
 */
export function synthesizeCached(cfg: AppConfig, synthEnv: readonly string[], warn: (line: string) => void): DesiredStack[] {
  const sealKey = newSynthSealKey();
  const run = () => readSynthInput(runApp(cfg, cfg.output, sealKey, synthEnv, warn), sealKey);
  // Without a state key yet (the first run here), there is nothing to key by: run the app as always.
  try { stateKeySource({ create: false }); } catch { return run(); }
  const { appEnv, withheld } = appRunEnvironment(sealKey, synthEnv);
  const key = cacheKey(cfg, appEnv);
  if (key === undefined) return run();
  const root = path.join(convergeDir(), 'synth-cache');
  const entry = path.join(root, crypto.createHash('sha256').update(cfg.dir).digest('hex').slice(0, 16));
  const meta = readMeta(entry);
  if (meta && meta.key === key && withheld.every((n) => meta.withheld.includes(n))) {
    const cached = readCached(entry);
    if (cached) {
      for (const name of meta.read) if (withheld.includes(name)) warn(withheldWarning(name));
      return cached;
    }
  }
  const read: string[] = [];
  const stacks = readSynthInput(runApp(cfg, cfg.output, sealKey, synthEnv, (line, name) => { read.push(name); warn(line); }), sealKey);
  store(root, entry, cfg.output, sealKey, { key, withheld, read });
  return stacks;
}

/** The cached stacks; undefined when the entry cannot be read (a damaged entry is synthesized again, which says what is wrong). */
function readCached(entry: string): DesiredStack[] | undefined {
  try {
    return readSynthInput(entry);
  } catch {
    return undefined;
  }
}

function readMeta(entry: string): EntryMeta | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(entry, 'meta.json'), 'utf8')) as EntryMeta;
  } catch {
    return undefined;
  }
}

/** The key of a synthesis (undefined when the app directory is too large to hash). */
function cacheKey(cfg: AppConfig, appEnv: NodeJS.ProcessEnv): string | undefined {
  const files = sourceFiles(cfg);
  if (!files) return undefined;
  const env = Object.entries(appEnv).filter(([k]) => k !== SYNTH_SEAL_VARIABLE).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const lockfiles: [string, string][] = [];
  for (let d = path.dirname(cfg.dir); ; d = path.dirname(d)) {
    for (const f of LOCKFILES) {
      const p = path.join(d, f);
      if (fs.existsSync(p)) lockfiles.push([p, fileHash(p)]);
    }
    if (path.dirname(d) === d) break;
  }
  const npmInstalled = path.join(cfg.dir, 'node_modules', '.package-lock.json');
  if (fs.existsSync(npmInstalled)) lockfiles.push([npmInstalled, fileHash(npmInstalled)]);
  const document = JSON.stringify({ format: 1, converge: convergeVersion(), app: cfg.app, dir: cfg.dir, output: cfg.output, env, files, lockfiles });
  return authenticate('synth cache', document);
}

/** `[relative path, sha256]` of each source file of the app, in a stable order; undefined past the limits. */
function sourceFiles(cfg: AppConfig): [string, string][] | undefined {
  const skip = new Set([cfg.output, convergeDir()].map((p) => path.resolve(p)));
  const out: [string, string][] = [];
  let bytes = 0;
  const walk = (dir: string): boolean => {
    const names = fs.readdirSync(dir).sort();
    for (const name of names) {
      const p = path.join(dir, name);
      const st = fs.lstatSync(p);
      if (st.isDirectory()) {
        if (NOT_SOURCE.has(name) || skip.has(p)) continue;
        if (!walk(p)) return false;
      } else if (st.isSymbolicLink()) {
        out.push([path.relative(cfg.dir, p), `link:${fs.readlinkSync(p)}`]);
      } else if (st.isFile()) {
        bytes += st.size;
        if (out.length >= MAX_FILES || bytes > MAX_BYTES) return false;
        out.push([path.relative(cfg.dir, p), fileHash(p)]);
      }
    }
    return true;
  };
  return walk(cfg.dir) ? out : undefined;
}

function fileHash(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function convergeVersion(): string {
  // package.json is three levels above both lib/core/synth and dist/core/synth.
  return (JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { version: string }).version;
}

/** Values the app sealed under the one-run key (`synth1.<iv>.<tag>.<ciphertext>`), anywhere in a file. */
const RUN_SEALED = /synth1\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;

/**
 * Writes the entry complete in a new directory, then swaps it in: a run that reads at the same time
 * sees the old entry or the new one. Best effort: a failure to cache never fails the command.
 */
function store(root: string, entry: string, output: string, sealKey: string, meta: EntryMeta): void {
  let tmp: string | undefined;
  try {
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    fs.chmodSync(root, 0o700);
    tmp = fs.mkdtempSync(path.join(root, 'new-'));
    const stacks = path.join(output, 'stacks');
    for (const name of fs.readdirSync(stacks)) {
      const f = path.join(stacks, name, 'cdk.tf.json');
      if (!fs.existsSync(f)) continue;
      fs.mkdirSync(path.join(tmp, 'stacks', name), { recursive: true, mode: 0o700 });
      const text = fs.readFileSync(f, 'utf8').replace(RUN_SEALED, (sealed) => resealUnderStateKey(sealed, sealKey));
      fs.writeFileSync(path.join(tmp, 'stacks', name, 'cdk.tf.json'), text, { mode: 0o600 });
    }
    fs.writeFileSync(path.join(tmp, 'meta.json'), JSON.stringify(meta), { mode: 0o600 });
    const old = `${entry}.old-${process.pid}`;
    if (fs.existsSync(entry)) fs.renameSync(entry, old);
    fs.renameSync(tmp, entry);
    tmp = undefined;
    fs.rmSync(old, { recursive: true, force: true });
  } catch {
    // Another run stored it at the same time, or the directory is not writable: the next run synthesizes again.
  } finally {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
}
