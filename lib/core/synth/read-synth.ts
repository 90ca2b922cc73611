import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { DESIRED_FORMAT, DesiredResource, DesiredStack, isSecretRef } from '../model';
import { SharedValues, sharedIfEmptyList } from '../shared-values';
import { newSynthSealKey, resealUnderStateKey, SYNTH_SEAL_VARIABLE } from '../crypto/synth-seal';
import { findAppDir } from '../crypto/secret-sources';
import { checkSynthesizedStacks } from './check-synth-input';
import { directAppCommand } from './direct-app-command';
import { watchWithheld, withheldWarning } from './withheld-env';

/** A spec with every value sealed under the one-run key sealed under the state key instead. */
function reseal(v: unknown, key: string): unknown {
  if (isSecretRef(v)) return v.$secret.sealed ? { $secret: { ...v.$secret, sealed: resealUnderStateKey(v.$secret.sealed, key) } } : v;
  if (Array.isArray(v)) return v.map((x) => reseal(x, key));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reseal(x, key)]));
  return v;
}

/** Where the app is and how to run it, from `cdktf.json`. */
export interface AppConfig {
  readonly dir: string;
  readonly app: string;
  readonly output: string;
}

/** Finds `cdktf.json` in `dir` or above. */
export function findAppConfig(dir: string): AppConfig | undefined {
  const d = findAppDir(dir);
  if (!d) return undefined;
  const f = path.join(d, 'cdktf.json');
  const cfg = JSON.parse(fs.readFileSync(f, 'utf8')) as { app?: string; output?: string };
  if (!cfg.app) throw new Error(`${f} has no "app" command`);
  return { dir: d, app: cfg.app, output: path.resolve(d, cfg.output ?? 'cdktf.out') };
}

/** The variable that names more variables for the app (comma-separated), as `--synth-env NAME` does. */
export const SYNTH_ENV_VARIABLE = 'CONVERGE_SYNTH_ENV';

/**
 * What a synthesis needs of the environment: where programs and the user's files are, locale and
 * terminal, and the settings of the language toolchains a cdktf app may be written in. Nothing that
 * holds a credential (checked by test/e2e/synth-environment.test.ts).
 */
const SYNTH_ALLOWED = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'CI',
  'TMPDIR', 'TMP', 'TEMP', 'PWD', 'SYSTEMROOT', 'COMSPEC', 'PATHEXT', 'WINDIR', 'APPDATA', 'LOCALAPPDATA', 'USERPROFILE',
  'NODE_PATH', 'NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'NVM_DIR', 'PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'PIPENV_VENV_IN_PROJECT',
  'JAVA_HOME', 'MAVEN_OPTS', 'MAVEN_HOME', 'GRADLE_USER_HOME', 'GOPATH', 'GOROOT', 'GOCACHE', 'GOMODCACHE', 'GOFLAGS',
  'DOTNET_ROOT', 'NUGET_PACKAGES',
]);
/** Prefixes of settings synthesis reads: locale, XDG directories, cdktf's and jsii's own. */
const SYNTH_ALLOWED_PREFIXES = ['LC_', 'XDG_', 'CDKTF_', 'JSII_'];

/** Never given to the app, even when named: the state key decrypts every secret in state. */
const NEVER_TO_APP = new Set(['CONVERGE_STATE_KEY']);

/**
 * The app's environment: an allow-list (above), the variables named by `--synth-env` and
 * `CONVERGE_SYNTH_ENV`, and the one-run sealing key. Everything else stays out, because the app is a
 * pull request's own code in CI: API tokens, the state key, the state backend's URL and password
 * (`PGPASSWORD`), and the values `SecretValue.fromEnv` names (the app renders only the name; converge
 * reads the value itself).
 */
export function appEnvironment(env: NodeJS.ProcessEnv, sealKey: string, extra: readonly string[] = []): NodeJS.ProcessEnv {
  const named = [...extra, ...(env[SYNTH_ENV_VARIABLE] ?? '').split(',')].map((n) => n.trim()).filter(Boolean);
  for (const n of named) {
    if (NEVER_TO_APP.has(n)) throw new Error(`${n} is never passed to the app (--synth-env, ${SYNTH_ENV_VARIABLE}): it decrypts every secret in state`);
  }
  const wanted = new Set(named);
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (NEVER_TO_APP.has(k)) continue;
    if (wanted.has(k) || SYNTH_ALLOWED.has(k) || SYNTH_ALLOWED_PREFIXES.some((p) => k.startsWith(p))) out[k] = v;
  }
  return { ...out, [SYNTH_SEAL_VARIABLE]: sealKey };
}

/**
 * jsii's banners about the Node.js version, which a Python, Java, Go or .NET app's runtime prints on
 * every synth (11 lines of `!!…`): the user did not choose converge's Node.js, so converge silences them.
 */
const JSII_QUIET = {
  JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1',
  // The Node.js major versions to keep quiet about: the app's runtime starts whichever `node` is on its PATH.
  JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: Array.from({ length: 100 }, (_, major) => major).join(','),
};

/**
 * The directory of the program that started converge, first on the app's PATH: the Python package's
 * `converge` command names its Python's (scripts/package-python.js), because jsii starts the CLI with
 * Node.js's directory first on PATH, where `python3` would be the system's, without the venv's packages.
 */
const LAUNCHER_BIN_VARIABLE = 'CONVERGE_LAUNCHER_BIN';

/**
 * The environment the app runs with (`appEnv`, the one-run key included), and the names of the
 * variables set here but withheld from it (`withheld`).
 */
export function appRunEnvironment(sealKey: string, synthEnv: readonly string[] = []): { appEnv: NodeJS.ProcessEnv; withheld: string[] } {
  const appEnv: NodeJS.ProcessEnv = { ...JSII_QUIET, ...appEnvironment(process.env, sealKey, synthEnv) };
  const launcher = process.env[LAUNCHER_BIN_VARIABLE];
  if (launcher) appEnv.PATH = [launcher, appEnv.PATH].filter(Boolean).join(path.delimiter);
  const withheld = Object.keys(process.env).filter((k) => !(k in appEnv) && !NEVER_TO_APP.has(k) && k !== LAUNCHER_BIN_VARIABLE && process.env[k] !== undefined);
  return { appEnv, withheld };
}

/**
 * Runs the app (as `cdktf synth` does) so that it writes its stacks into `outdir`. `warn` hears of each
 * variable the app read that is set here but withheld from it (see withheld-env.ts).
 */
export function runApp(cfg: AppConfig, outdir = cfg.output, sealKey = newSynthSealKey(), synthEnv: readonly string[] = [],
  warn: (line: string, name: string) => void = (line) => process.stderr.write(`${line}\n`)): string {
  fs.rmSync(path.join(outdir, 'stacks'), { recursive: true, force: true });
  const { appEnv, withheld } = appRunEnvironment(sealKey, synthEnv);
  const watch = watchWithheld(appEnv, withheld);
  const { command, binDir } = directAppCommand(cfg.app, cfg.dir);
  // As npx would: the binaries of the app's node_modules first on its PATH.
  if (binDir) appEnv.PATH = [binDir, appEnv.PATH].filter(Boolean).join(path.delimiter);
  let r;
  try {
    r = spawnSync(command, {
      cwd: cfg.dir, shell: true, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
      env: { ...appEnv, ...watch.env, CDKTF_OUTDIR: outdir, CDKTF_DISABLE_PLUGIN_CACHE_ENV: '1' },
    });
  } finally {
    for (const name of watch.finish()) warn(withheldWarning(name), name);
  }
  if (r.status !== 0) {
    const out = `${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`synth failed: "${cfg.app}" exited with ${r.status ?? r.signal}\n${out}`);
  }
  return outdir;
}

/** Reads the desired state of every stack of a synth directory (`sealKey`: the one-run key the app sealed with). */
export function readSynthDir(dir: string, sealKey?: string): DesiredStack[] {
  const root = path.join(dir, 'stacks');
  if (!fs.existsSync(root)) throw new Error(`no stacks in ${dir} (was the app synthesized?)`);
  const stacks: DesiredStack[] = [];
  const providers = new SharedValues();
  for (const name of fs.readdirSync(root).sort()) {
    const f = path.join(root, name, 'cdk.tf.json');
    if (!fs.existsSync(f)) continue;
    const tf = JSON.parse(fs.readFileSync(f, 'utf8')) as { '//'?: { metadata?: { converge?: DesiredStack } } };
    const block = tf['//']?.metadata?.converge;
    if (block && block.version > DESIRED_FORMAT) {
      throw new Error(`${f} was synthesized by a newer converge (format ${block.version}); upgrade the converge CLI`);
    }
    const resources = block?.resources ?? {};
    for (const r of Object.values(resources) as { -readonly [K in keyof DesiredResource]: DesiredResource[K] }[]) {
      if (sealKey) r.spec = reseal(r.spec, sealKey) as DesiredResource['spec'];
      // Each resource's provider and empty dependencies, once in memory (checked as they are: shared, not changed).
      if (r.provider && typeof r.provider === 'object') r.provider = providers.one(r.provider);
      if (Array.isArray(r.dependsOn)) r.dependsOn = sharedIfEmptyList(r.dependsOn);
    }
    const dependsOnStacks = block?.dependsOnStacks;
    stacks.push({ version: DESIRED_FORMAT, stack: name, resources, ...(dependsOnStacks && Object.keys(dependsOnStacks).length ? { dependsOnStacks } : {}) });
  }
  return stacks;
}

/**
 * Reads a synthesized output as the CLI takes it: `readSynthDir`, then the checks that keep it data
 * (`checkSynthesizedStacks`: what its providers and secret sources may name), before anything is
 * read or sent. The kinds must be registered.
 */
export function readSynthInput(dir: string, sealKey?: string): DesiredStack[] {
  const stacks = readSynthDir(dir, sealKey);
  checkSynthesizedStacks(stacks);
  return stacks;
}
