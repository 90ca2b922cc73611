import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, tempDir } from '../support/harness';
import { packTarball, run } from '../support/packaged';

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

// A new user has no app yet: the command the README gives to start one must work from an empty
// directory (a bare `npx converge` runs an unrelated npm package named `converge`), and the app it
// writes must install on a teammate's machine or in CI (no absolute path to this machine's install).
describe('converge init from nowhere', () => {
  let tarball: string;
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  const vendored = `vendor/cdk-converge-${version}.tgz`;
  // npm_config_prefer_offline: the packages npx and npm install come from npm's cache when it has them (as on a CI
  // runner with a cached ~/.npm), without a registry round trip for each; the commands are the README's.
  const env = { ...process.env, NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_prefer_offline: 'true' };
  // Packed once per jest run, shared with the other tests of the package (read only).
  beforeAll(async () => { tarball = await packTarball(); });

  /** The README's command, with the release tarball's path where a user writes its file name. */
  function readmeInitCommand(): string[] {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const line = readme.split('\n').find((l) => /^npx --yes -p \S+ converge init /.test(l));
    if (!line) throw new Error('README shows no `npx --yes -p … converge init` command');
    return line.replace(/\s+#.*$/, '').split(/\s+/).slice(1);
  }

  test('the README command, from an empty directory, writes an app depending on a tarball inside it', async () => {
    const home = tempDir('converge-nowhere-');
    try {
      fs.copyFileSync(tarball, path.join(home, path.basename(tarball)));
      const args = readmeInitCommand();
      // As the README writes it: --yes, so that a shell without a terminal is not asked to install.
      expect(args.slice(0, 3)).toEqual(['--yes', '-p', `./cdk-converge-${version}.tgz`]);
      const r = await run('npx', args, { cwd: home, env });
      expect(r.status).toBe(0);
      const app = path.join(home, args[args.length - 1]);
      const pkg = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
      expect(pkg.dependencies['cdk-converge']).toBe(`file:${vendored}`);
      // The same bytes (compared as digests: jest's toEqual walks a 5 MB Buffer byte by byte, for minutes).
      expect(sha256(path.join(app, vendored))).toBe(sha256(tarball));
      expect(fs.readFileSync(path.join(app, 'package.json'), 'utf8')).not.toContain(home);
      expect(r.stdout).toContain(vendored);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test('after a global install from the tarball, the app is portable: moved elsewhere, it installs', async () => {
    const home = tempDir('converge-global-');
    try {
      const prefix = path.join(home, 'prefix');
      let r = await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', tarball], { cwd: home, env });
      expect(r.stderr).not.toMatch(/ERR!/);
      r = await run(path.join(prefix, 'bin', 'converge'), ['init', 'team-app'], { cwd: home, env });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const pkg = JSON.parse(fs.readFileSync(path.join(home, 'team-app', 'package.json'), 'utf8'));
      expect(pkg.dependencies['cdk-converge']).toBe(`file:${vendored}`);
      // A teammate's clone: elsewhere, without the global install.
      const clone = path.join(home, 'elsewhere', 'team-app');
      fs.mkdirSync(path.dirname(clone));
      fs.renameSync(path.join(home, 'team-app'), clone);
      fs.rmSync(prefix, { recursive: true, force: true });
      // What `npm install` in the clone reads for cdk-converge: the tarball its package.json names, relative to the app.
      const spec = JSON.parse(fs.readFileSync(path.join(clone, 'package.json'), 'utf8')).dependencies['cdk-converge'] as string;
      r = await run('tar', ['-xzOf', path.resolve(clone, spec.slice('file:'.length)), 'package/package.json'], { cwd: clone, env });
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ name: 'cdk-converge', version });
      r = await run('tar', ['-tzf', path.resolve(clone, spec.slice('file:'.length))], { cwd: clone, env });
      expect(r.stdout.split('\n')).toEqual(expect.arrayContaining(['package/dist/cli/main.js', 'package/node_modules/undici/package.json']));
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
