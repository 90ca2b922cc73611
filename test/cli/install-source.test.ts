import * as fs from 'fs';
import * as path from 'path';
import { convergeDependency } from '../../lib/cli/install-source';
import { tempDir } from '../support/harness';

// `converge init` makes the new app depend on what the running converge was installed from.
/** A project with cdk-converge installed in node_modules, and npm's hidden lockfile saying from where. */
function installed(resolved: string | undefined): { project: string; pkg: string } {
  const project = tempDir('converge-src-');
  const pkg = path.join(project, 'node_modules', 'cdk-converge');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'cdk-converge', version: '0.3.1' }));
  if (resolved) {
    fs.writeFileSync(path.join(project, 'node_modules', '.package-lock.json'), JSON.stringify({
      name: 'p', lockfileVersion: 3, packages: { 'node_modules/cdk-converge': { version: '0.3.1', resolved } },
    }));
  }
  return { project, pkg };
}

test('from the registry: the version range', () => {
  const { pkg } = installed('https://registry.npmjs.org/cdk-converge/-/cdk-converge-0.3.1.tgz');
  expect(convergeDependency(pkg)).toEqual({ spec: '^0.3.1', from: 'the registry', installLinks: false });
});

test('from a tarball: that tarball, by absolute path (the lockfile holds it relative to the project)', () => {
  const { project, pkg } = installed('file:../dl/cdk-converge-0.3.1.tgz');
  const tgz = path.resolve(project, '..', 'dl', 'cdk-converge-0.3.1.tgz');
  fs.mkdirSync(path.dirname(tgz), { recursive: true });
  fs.writeFileSync(tgz, 'x');
  expect(convergeDependency(pkg)).toEqual({ spec: `file:${tgz}`, from: `the tarball ${tgz}`, installLinks: false });
  fs.rmSync(tgz);
  // The tarball is gone: the installed package's own directory, installed as a copy.
  expect(convergeDependency(pkg)).toEqual({ spec: `file:${fs.realpathSync(pkg)}`, from: `the directory ${fs.realpathSync(pkg)}`, installLinks: true });
});

test('from git: the same git URL', () => {
  const url = 'git+ssh://git@github.com/converge-iac/cdk-converge.git#4f2a9e1';
  expect(convergeDependency(installed(url).pkg).spec).toBe(url);
});

test('a global install (no lockfile) and a checkout: the package directory', () => {
  const { pkg } = installed(undefined);
  expect(convergeDependency(pkg).spec).toBe(`file:${fs.realpathSync(pkg)}`);
  const checkout = tempDir('converge-checkout-');
  fs.writeFileSync(path.join(checkout, 'package.json'), JSON.stringify({ name: 'cdk-converge', version: '0.3.1' }));
  expect(convergeDependency(checkout)).toEqual({ spec: `file:${fs.realpathSync(checkout)}`, from: `the directory ${fs.realpathSync(checkout)}`, installLinks: true });
});
