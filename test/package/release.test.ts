import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require('js-yaml') as { load(text: string): unknown };
import { ROOT } from '../support/harness';

// The release: one command (scripts/release.sh), run by the workflow on a tag with the registries'
// tokens. Its full dry run (`npm run release:dry-run`: build, rosetta, pacmak js/java/go, the wheel,
// publib with PUBLIB_DRYRUN) takes minutes and runs in CI after npm test; here, what is quick.
interface Step { run?: string; uses?: string; env?: Record<string, string> }
const workflow = yaml.load(fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as {
  on: { push: { tags: string[] } }; jobs: Record<string, { steps: Step[] }>;
};
const release = (args: string[]) => spawnSync('bash', [path.join(ROOT, 'scripts', 'release.sh'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });

describe('the release', () => {
  test('the workflow runs on a version tag: tests, then scripts/release.sh with the tag, its tokens from secrets', () => {
    expect(workflow.on.push.tags).toEqual(['v[0-9]+.[0-9]+.[0-9]+*']);
    const steps = Object.values(workflow.jobs)[0].steps;
    const runs = steps.map((s) => s.run ?? '');
    const test = runs.findIndex((r) => r === 'npm test');
    const publish = runs.findIndex((r) => r.startsWith('bash scripts/release.sh "$GITHUB_REF_NAME"'));
    expect(test).toBeGreaterThan(0);
    expect(publish).toBeGreaterThan(test);
    const env = steps[publish].env!;
    for (const token of ['NPM_TOKEN', 'TWINE_PASSWORD', 'MAVEN_PASSWORD', 'MAVEN_GPG_PRIVATE_KEY', 'GITHUB_TOKEN']) {
      expect(env[token]).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
    }
  });

  test('it is built by jsii-pacmak for js, java, go and python and published by publib to each registry', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.devDependencies)).toEqual(expect.arrayContaining(['publib', 'jsii-pacmak']));
    expect(pkg.scripts['release:dry-run']).toBe('bash scripts/release.sh --dry-run');
    const script = fs.readFileSync(path.join(ROOT, 'scripts', 'release.sh'), 'utf8');
    expect(script).toMatch(/jsii-pacmak --targets js java go /);
    expect(script).toMatch(/scripts\/package-python\.js/);
    for (const p of ['publib-npm dist-packages/js', 'publib-pypi dist-packages/python', 'publib-maven dist-packages/java', 'publib-golang dist-packages/go']) {
      expect(script).toContain(p);
    }
  });

  test('the version comes from the tag and must have its CHANGELOG section; both are checked before anything is built', () => {
    let r = release(['vnext']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("the version must be X.Y.Z[-pre] (from the tag vX.Y.Z); got 'next'");
    r = release(['v987.6.5']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("CHANGELOG.md has no section '## [987.6.5]'");
    expect(r.stdout).not.toContain('== release');
    expect(fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8')).toMatch(/^## \[Unreleased\]$/m);
  });
});
