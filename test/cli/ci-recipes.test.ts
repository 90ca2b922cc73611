import * as fs from 'fs';
import * as path from 'path';
import { cliAsync, ROOT, startWorld, tempDir, TestWorld } from '../support/harness';
import { linkModules, run } from '../support/packaged';
import { startPostgres, TestPostgres } from '../support/postgres';

// The recipes of docs/ci.md, run as their CI would run them: every step (GitHub Actions `run:`)
// or script line (GitLab `script:`) that calls converge is taken from the Markdown and run with
// the job's shell, in an app made by `converge init`, against the emulator, with the state in PostgreSQL.

const DOC = fs.readFileSync(path.join(ROOT, 'docs', 'ci.md'), 'utf8');

function yamlBlock(title: string): string[] {
  const m = new RegExp('```yaml title=' + title.replace(/\./g, '\\.') + '\\n([\\s\\S]*?)\\n```').exec(DOC);
  if (!m) throw new Error(`docs/ci.md has no yaml block titled ${title}`);
  return m[1].split('\n');
}

/** The `run:` scripts of a GitHub Actions job that call converge. */
function githubSteps(job: string): string[] {
  const lines = yamlBlock('.github/workflows/converge.yml');
  const start = lines.indexOf(`  ${job}:`);
  const end = lines.findIndex((l, i) => i > start && /^ {2}[a-z-]+:\s*$/.test(l));
  const body = lines.slice(start + 1, end < 0 ? undefined : end);
  const steps: string[] = [];
  body.forEach((l, i) => {
    const m = /^(\s*)(?:- )?run: (.*)$/.exec(l);
    if (!m) return;
    if (m[2] !== '|') { steps.push(m[2]); return; }
    const indent = m[1].length;
    const block: string[] = [];
    for (const x of body.slice(i + 1)) {
      if (x.trim() && x.length - x.trimStart().length <= indent + (l.trimStart().startsWith('- ') ? 2 : 0)) break;
      block.push(x.trim());
    }
    steps.push(block.join('\n'));
  });
  return steps.filter((s) => s.includes('converge'));
}

/** The `script:` lines of a GitLab CI job that call converge. */
function gitlabLines(job: string): string[] {
  const lines = yamlBlock('.gitlab-ci.yml');
  const start = lines.indexOf(`${job}:`);
  const end = lines.findIndex((l, i) => i > start && /^[a-z-]+:/.test(l));
  const body = lines.slice(start + 1, end < 0 ? undefined : end);
  const s = body.findIndex((l) => l.trim() === 'script:');
  const out: string[] = [];
  for (const l of body.slice(s + 1)) {
    const m = /^ {4}- (.*)$/.exec(l);
    if (!m) break;
    out.push(m[1].startsWith("'") ? m[1].slice(1, -1).replace(/''/g, "'") : m[1]);
  }
  return out.filter((x) => x.includes('converge'));
}

describe('docs/ci.md recipes', () => {
  let pg: TestPostgres;
  let world: TestWorld;
  beforeAll(async () => {
    pg = await startPostgres();
    world = await startWorld({}, { CONVERGE_STATE: pg.url });
  });
  afterAll(async () => {
    await world?.stop();
    await pg?.stop();
  });

  async function newApp(name: string, stack: string): Promise<string> {
    const app = path.join(tempDir('converge-ci-'), name);
    const r = await cliAsync(['init', app, '--stack', stack], world.env);
    expect(r.status).toBe(0);
    linkModules(app);
    return app;
  }

  test('the recipes call converge the way this page documents', () => {
    expect(githubSteps('plan')).toHaveLength(1);
    expect(githubSteps('apply')).toEqual(['npx converge plan --stack "$STACK" --out "$STACK.plan"\nnpx converge apply "$STACK.plan"']);
    // Issue 13 §4: no secret for the whole workflow; the plan job's are read-only ones; apply's come from the protected environment.
    const gh = yamlBlock('.github/workflows/converge.yml');
    const jobsAt = gh.indexOf('jobs:');
    expect(gh.slice(0, jobsAt).filter((l) => l.includes('secrets.'))).toEqual([]);
    const planJob = gh.slice(gh.indexOf('  plan:'), gh.indexOf('  apply:'));
    expect(planJob.filter((l) => /_TOKEN: \$\{\{ secrets\./.test(l)).every((l) => /secrets\.\w*READ\w*_TOKEN/.test(l))).toBe(true);
    expect(planJob.join('\n')).toMatch(/environment: plan/);
    expect(gh.slice(gh.indexOf('  apply:')).join('\n')).toMatch(/environment: production/);
    expect(gitlabLines('plan')).toHaveLength(1);
    expect(gitlabLines('apply')).toEqual(['npx converge plan --stack "$STACK" --out "$STACK.plan"', 'npx converge apply "$STACK.plan"']);
  });

  test('GitHub Actions: plan on a pull request (summary, exit code output), apply the saved plan on merge', async () => {
    const app = await newApp('gh-app', 'gh');
    const outputFile = path.join(app, 'github-output');
    fs.writeFileSync(outputFile, '');
    const env = { ...world.env, STACK: 'gh', GITHUB_OUTPUT: outputFile, CI: 'true' };
    // GitHub runs a `run:` script as `bash --noprofile --norc -eo pipefail`.
    const step = (script: string) => run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: app, env });

    for (const s of githubSteps('plan')) {
      const r = await step(s);
      expect(r.stderr.replace(/^npm warn .*\n/gm, '')).toBe('');
      expect(r.status).toBe(0);
    }
    expect(fs.readFileSync(outputFile, 'utf8')).toBe('exitcode=2\n');
    expect(fs.readFileSync(path.join(app, 'plan-summary.md'), 'utf8')).toMatch(/### Stack `gh`\n\n\*\*2\*\* to add/);

    for (const s of githubSteps('apply')) {
      const r = await step(s);
      expect({ status: r.status, out: r.status ? `${r.stdout}${r.stderr}` : '' }).toEqual({ status: 0, out: '' });
    }
    const after = await cliAsync(['plan', '--stack', 'gh', '--detailed-exitcode'], env, app);
    expect(after.status).toBe(0);
    // The state is in PostgreSQL, not on the runner.
    expect(fs.existsSync(path.join(world.dir, '.converge', 'stacks', 'gh'))).toBe(false);
    expect(fs.existsSync(path.join(app, '.converge', 'stacks', 'gh'))).toBe(false);
  });

  test('GitLab CI: plan on a merge request tolerates exit 2 and fails on 1; apply the saved plan on the default branch', async () => {
    const app = await newApp('gl-app', 'gl');
    const env = { ...world.env, STACK: 'gl', CI: 'true' };
    // GitLab runs each script line in a shell that stops at the first failing one.
    const line = (l: string, e: NodeJS.ProcessEnv = env) => run('sh', ['-e', '-c', l], { cwd: app, env: e });

    const [plan] = gitlabLines('plan');
    let r = await line(plan);
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(app, 'plan-summary.md'), 'utf8')).toMatch(/\| ➕ \| `org` \| platform\.Organization \| create/);
    // An error (here: no state key for the shared backend) still fails the job.
    r = await line(plan, { ...env, CONVERGE_STATE: 'postgres://nobody@127.0.0.1:1/none', CONVERGE_STATE_KEY: '' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/CONVERGE_STATE_KEY/);

    for (const l of gitlabLines('apply')) {
      r = await line(l);
      expect({ status: r.status, stderr: r.stderr.replace(/^npm warn .*\n/gm, ''), out: r.status ? r.stdout : '' }).toEqual({ status: 0, stderr: '', out: '' });
    }
    r = await line(plan);
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(app, 'plan-summary.md'), 'utf8')).toMatch(/\*\*0\*\* to add, \*\*0\*\* to change/);
  });
});
