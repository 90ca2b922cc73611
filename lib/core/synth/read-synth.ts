import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { DESIRED_FORMAT, DesiredStack, isSecretRef } from '../model';
import { newSynthSealKey, resealUnderStateKey, SYNTH_SEAL_VARIABLE } from '../crypto/synth-seal';

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
  let d = path.resolve(dir);
  for (;;) {
    const f = path.join(d, 'cdktf.json');
    if (fs.existsSync(f)) {
      const cfg = JSON.parse(fs.readFileSync(f, 'utf8')) as { app?: string; output?: string };
      if (!cfg.app) throw new Error(`${f} has no "app" command`);
      return { dir: d, app: cfg.app, output: path.resolve(d, cfg.output ?? 'cdktf.out') };
    }
    const up = path.dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}

/**
 * The app's environment: the CLI's, without what synthesis never needs and a pull request's code must
 * not read: API tokens (any `*_TOKEN`), the state key and the state backend's URL (it may hold a
 * password). A `SecretValue` renders only where to find a value, so the app needs none of them.
 */
export function appEnvironment(env: NodeJS.ProcessEnv, sealKey: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (/_TOKEN$/.test(k) || k === 'CONVERGE_STATE_KEY' || k === 'CONVERGE_STATE') continue;
    out[k] = v;
  }
  return { ...out, [SYNTH_SEAL_VARIABLE]: sealKey };
}

/** Runs the app (as `cdktf synth` does) so that it writes its stacks into `outdir`. */
export function runApp(cfg: AppConfig, outdir = cfg.output, sealKey = newSynthSealKey()): string {
  fs.rmSync(path.join(outdir, 'stacks'), { recursive: true, force: true });
  const r = spawnSync(cfg.app, {
    cwd: cfg.dir, shell: true, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
    env: { ...appEnvironment(process.env, sealKey), CDKTF_OUTDIR: outdir, CDKTF_DISABLE_PLUGIN_CACHE_ENV: '1' },
  });
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
  for (const name of fs.readdirSync(root).sort()) {
    const f = path.join(root, name, 'cdk.tf.json');
    if (!fs.existsSync(f)) continue;
    const tf = JSON.parse(fs.readFileSync(f, 'utf8')) as { '//'?: { metadata?: { converge?: DesiredStack } } };
    const block = tf['//']?.metadata?.converge;
    if (block && block.version > DESIRED_FORMAT) {
      throw new Error(`${f} was synthesized by a newer converge (format ${block.version}); upgrade the converge CLI`);
    }
    const resources = block?.resources ?? {};
    if (sealKey) for (const r of Object.values(resources)) (r as { spec: unknown }).spec = reseal(r.spec, sealKey);
    const dependsOnStacks = block?.dependsOnStacks;
    stacks.push({ version: DESIRED_FORMAT, stack: name, resources, ...(dependsOnStacks && Object.keys(dependsOnStacks).length ? { dependsOnStacks } : {}) });
  }
  return stacks;
}
