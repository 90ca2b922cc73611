import { spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT, tempDir } from './harness';

/** Runs a command without blocking the event loop (an emulator may answer from this process). */
export function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }):
  Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function mustRun(cmd: string, args: string[], cwd: string): Promise<string> {
  const r = await run(cmd, args, { cwd });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/**
 * `npm pack` of the built package (dist/, bin/, .jsii, bundled dependencies): the tarball a user gets. Packed once
 * per jest run and shared by the test files that install it (see `sharedBuild`); a test copies or installs it, and
 * never changes or removes it.
 */
export function packTarball(): Promise<string> {
  const inputs = ['package.json', 'README.md', 'API.md', '.jsii', 'bin', 'dist', 'docs'];
  return sharedBuild('npm-pack', inputs, async (dest) => {
    const out = await mustRun('npm', ['pack', '--json', '--pack-destination', dest], ROOT);
    const [info] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
    return path.join(dest, info.filename);
  });
}

/**
 * What `build` makes, made once per jest run and content: the first test file (in any worker) to ask builds it into
 * a directory of the run's temporary directory named by a hash of `inputs` (paths in the repository); the others
 * wait for its `done.json` and get the same path. A build that failed fails every asker with its error; one whose
 * process is gone (a killed worker) is built again by the next asker. Returns the path `build` returned.
 */
export async function sharedBuild(name: string, inputs: string[], build: (dir: string) => Promise<string>): Promise<string> {
  const base = path.join(process.env.CONVERGE_JEST_TMPDIR ?? os.tmpdir(), 'converge-shared');
  fs.mkdirSync(base, { recursive: true });
  const dir = path.join(base, `${name}-${hashInputs(inputs)}`);
  const done = path.join(dir, 'done.json');
  const owner = path.join(dir, 'owner.json');
  for (;;) {
    try {
      fs.mkdirSync(dir); // atomic: exactly one asker builds
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const result = await waitForBuild(dir, done, owner);
      if (result) return result;
      continue; // its builder is gone: the directory was removed, build again
    }
    fs.writeFileSync(owner, JSON.stringify({ pid: process.pid }));
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    try {
      const result = await build(out);
      writeAtomically(done, JSON.stringify({ result }));
      return result;
    } catch (e) {
      writeAtomically(done, JSON.stringify({ error: (e as Error).message }));
      throw e;
    }
  }
}

/** The result of another asker's build, its error thrown, or undefined when its process is gone unfinished. */
async function waitForBuild(dir: string, done: string, owner: string): Promise<string | undefined> {
  for (;;) {
    if (fs.existsSync(done)) {
      const r = JSON.parse(fs.readFileSync(done, 'utf8')) as { result?: string; error?: string };
      if (r.error !== undefined) throw new Error(`the shared build in ${dir} failed in another test file: ${r.error}`);
      return r.result!;
    }
    const pid = readPid(owner);
    if (pid !== undefined && !alive(pid)) {
      fs.rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
    // done.json is renamed into place: a change of the directory is the moment to look again.
    await new Promise<void>((resolve) => {
      const watcher = fs.watch(dir, () => { clearTimeout(timer); watcher.close(); resolve(); });
      const timer = setTimeout(() => { watcher.close(); resolve(); }, 1000); // and now and then, for a builder that died
    });
  }
}

function readPid(file: string): number | undefined {
  try { return (JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number }).pid; } catch { return undefined; }
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

function writeAtomically(file: string, text: string): void {
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

/** A hash of the content of files and directories (recursively) of the repository, in a stable order. */
function hashInputs(inputs: string[]): string {
  const hash = crypto.createHash('sha256');
  const add = (rel: string) => {
    const p = path.join(ROOT, rel);
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p).sort()) add(path.join(rel, e));
    } else {
      hash.update(`${rel}\0${st.size}\0`).update(fs.readFileSync(p));
    }
  };
  for (const i of inputs) add(i);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A fresh app directory outside the repo with the tarball installed by npm (its runtime
 * dependencies are bundled, so no registry is needed), `extra` packages installed from the
 * registry (or its cache), and `linkPeers` linked from the repo's node_modules.
 */
export async function appWithPackage(tarball: string, extra: string[], linkPeers: string[]): Promise<string> {
  const dir = tempDir('converge-app-');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'converge-test-app', version: '1.0.0', private: true }, null, 2));
  const flags = ['--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps', '--no-package-lock'];
  await mustRun('npm', ['install', ...flags, ...(extra.length ? ['--prefer-offline'] : ['--offline']), tarball, ...extra], dir);
  for (const peer of linkPeers) {
    const to = path.join(dir, 'node_modules', peer);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules', peer), to, 'dir');
  }
  return dir;
}

/** Writes a cdktf app (cdktf.json and main.ts run by the repo's tsx). */
export function writeApp(dir: string, mainTs: string): void {
  fs.writeFileSync(path.join(dir, 'main.ts'), mainTs);
  const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  fs.writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: `"${process.execPath}" "${tsx}" main.ts`, output: 'cdktf.out' }));
}

/** Packages a `converge init` app names, linked from the repo instead of `npm install` (cdk-converge is the repo itself). */
const INIT_LINKED = ['cdktf', 'constructs', 'tsx', 'jest', 'ts-jest', 'typescript', '@types/jest', '@types/node'];

export function linkModules(app: string): void {
  const nm = path.join(app, 'node_modules');
  fs.mkdirSync(path.join(nm, '@types'), { recursive: true });
  fs.mkdirSync(path.join(nm, '.bin'));
  fs.symlinkSync(ROOT, path.join(nm, 'cdk-converge'), 'dir');
  for (const p of INIT_LINKED) fs.symlinkSync(path.join(ROOT, 'node_modules', p), path.join(nm, p), 'dir');
  fs.symlinkSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), path.join(nm, '.bin', 'tsx'));
  fs.symlinkSync(path.join(ROOT, 'bin', 'converge'), path.join(nm, '.bin', 'converge'));
}
