import { spawn } from 'child_process';
import * as fs from 'fs';
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

/** `npm pack` of the built package (dist/, bin/, .jsii, bundled dependencies) into a temp dir; returns the tarball. */
export async function packTarball(): Promise<string> {
  const dest = tempDir('converge-pack-');
  const out = await mustRun('npm', ['pack', '--json', '--pack-destination', dest], ROOT);
  const [info] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  return path.join(dest, info.filename);
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
