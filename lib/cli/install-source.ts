import * as fs from 'fs';
import * as path from 'path';

/** The root of the running converge package (dist/cli/ -> package root). */
export const OWN_ROOT = path.resolve(__dirname, '..', '..');

interface LockEntry { resolved?: string; link?: boolean }

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * How a new app depends on cdk-converge: what the running converge was installed from, so that
 * `npm install` in the app gets the same package.
 *
 * - from a registry (its lockfile entry resolves to a registry tarball): `^<version>`;
 * - from a tarball or git (the lockfile says so): that tarball (`file:/abs/x.tgz`) or git URL;
 * - a git checkout, `npm link`, or an install nobody recorded (a global install): the package's own
 *   directory, `file:/abs/dir`, which the app installs as a copy (`install-links=true` in its .npmrc).
 */
export function convergeDependency(root = OWN_ROOT): { spec: string; from: string; installLinks: boolean } {
  const real = fs.realpathSync(root);
  const pkg = readJson<{ name: string; version: string; _resolved?: string }>(path.join(real, 'package.json'));
  const version = pkg?.version ?? '0.0.0';
  const dir = { spec: `file:${real}`, from: `the directory ${real}`, installLinks: true };
  const nodeModules = path.dirname(real);
  if (path.basename(nodeModules) !== 'node_modules') return dir;
  const project = path.dirname(nodeModules);
  // The hidden lockfile npm keeps in node_modules (npx's cache has one too), else the project's own.
  const key = `node_modules/${pkg?.name ?? 'cdk-converge'}`;
  let resolved = pkg?._resolved;
  let base = project;
  for (const [file, from] of [[path.join(nodeModules, '.package-lock.json'), project], [path.join(project, 'package-lock.json'), project]]) {
    const entry = readJson<{ packages?: Record<string, LockEntry> }>(file)?.packages?.[key];
    if (entry?.resolved) { resolved = entry.resolved; base = from; break; }
  }
  if (!resolved) return dir;
  if (/^https?:\/\/.*\/-\/[^/]+-\d[^/]*\.tgz$/.test(resolved)) return { spec: `^${version}`, from: 'the registry', installLinks: false };
  if (resolved.startsWith('file:')) {
    const target = path.resolve(base, resolved.slice('file:'.length));
    if (!fs.existsSync(target)) return dir;
    return fs.statSync(target).isDirectory() ? { spec: `file:${target}`, from: `the directory ${target}`, installLinks: true }
      : { spec: `file:${target}`, from: `the tarball ${target}`, installLinks: false };
  }
  return { spec: resolved, from: resolved, installLinks: false };
}
