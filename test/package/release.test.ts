import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require('js-yaml') as { load(text: string): unknown };
import { ROOT } from '../support/harness';

// The release: one command (scripts/release.sh), run by the workflow on a tag with the registries'
// tokens. Its full dry run (`npm run release:dry-run`: build, rosetta, pacmak js/java/go, the wheel,
// publib with PUBLIB_DRYRUN) takes minutes and runs in CI after npm test; here, what is quick.
interface Step { run?: string; uses?: string; with?: Record<string, unknown>; env?: Record<string, string> }
interface Job { steps: Step[]; needs?: string; permissions?: Record<string, string> }
const workflow = yaml.load(fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as {
  on: { push: { tags: string[] } }; permissions?: Record<string, string>; jobs: Record<string, Job>;
};
const release = (args: string[]) => spawnSync('bash', [path.join(ROOT, 'scripts', 'release.sh'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });

describe('the release', () => {
  test('the workflow runs on a version tag: tests and the build in a job that can write nothing, then scripts/release.sh publishes with its tokens from secrets', () => {
    expect(workflow.on.push.tags).toEqual(['v[0-9]+.[0-9]+.[0-9]+*']);
    const { build, publish } = workflow.jobs;
    const runs = build.steps.map((s) => s.run ?? '');
    const test = runs.findIndex((r) => r === 'npm test');
    expect(test).toBeGreaterThan(0);
    expect(runs.findIndex((r) => r.startsWith('bash scripts/release.sh --build-only "$GITHUB_REF_NAME"'))).toBeGreaterThan(test);
    expect(publish.needs).toBe('build');
    const step = publish.steps.find((s) => (s.run ?? '').startsWith('bash scripts/release.sh --publish-only "$GITHUB_REF_NAME"'))!;
    for (const token of ['NPM_TOKEN', 'TWINE_PASSWORD', 'MAVEN_PASSWORD', 'MAVEN_GPG_PRIVATE_KEY', 'GITHUB_TOKEN']) {
      expect(step.env![token]).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
    }
  });

  test('write permission only in the publishing job; no checkout keeps its token; no install script where the tokens are (issue 32 item 5)', () => {
    expect(workflow.permissions ?? {}).toEqual({});
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const writes = Object.entries(job.permissions ?? {}).filter(([, v]) => v === 'write').map(([k]) => k);
      expect({ name, writes }).toEqual({ name, writes: name === 'publish' ? ['contents'] : [] });
      for (const s of job.steps.filter((x) => x.uses?.startsWith('actions/checkout'))) expect(s.with?.['persist-credentials']).toBe(false);
    }
    const installs = workflow.jobs.publish.steps.map((s) => s.run ?? '').filter((r) => r.startsWith('npm ci'));
    for (const r of installs) expect(r).toContain('--ignore-scripts');
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
