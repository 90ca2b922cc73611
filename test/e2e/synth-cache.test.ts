import * as fs from 'fs';
import * as path from 'path';
import { cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';
import { linkModules, writeApp } from '../support/packaged';

// Issue 37, the fixed cost: an unchanged app is not synthesized again. The key is the app's files,
// the lockfile, the app's command, the environment the app is given (names and values) and converge's
// version; `--synth-dir` still wins and `--no-synth-cache` / CONVERGE_SYNTH_CACHE=0 turn it off.
describe('the synthesis cache', () => {
  let world: TestWorld;
  let dir: string;
  let counter: string;
  const runs = () => (fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').length : 0);
  const source = (org: string) => `
import * as fs from 'fs';
import { App, TerraformStack } from 'cdktf';
import { platform } from 'cdk-converge';
fs.appendFileSync(${JSON.stringify(counter)}, 'x');
const app = new App();
const stack = new TerraformStack(app, 'cached');
new platform.Organization(stack, 'org', { name: process.env.ORG_NAME ?? '${org}', email: 'ops@acme.io' });
app.synth();
`;
  const plan = async (args: string[] = [], env: NodeJS.ProcessEnv = {}) => {
    const r = await cliAsync(['plan', ...args], { ...world.env, ...env }, dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return r.stdout;
  };

  beforeAll(async () => {
    world = await startWorld();
    dir = tempDir('converge-app-cache-');
    counter = path.join(tempDir('converge-app-counter-'), 'runs');
    linkModules(dir);
    writeApp(dir, source('first-org'));
    fs.writeFileSync(path.join(dir, 'package-lock.json'), '{"lockfileVersion":3}\n');
  });
  afterAll(async () => { await world.stop(); fs.rmSync(dir, { recursive: true, force: true }); fs.rmSync(path.dirname(counter), { recursive: true, force: true }); });

  test('an unchanged app runs once over two plans, with the same plan', async () => {
    const first = await plan();
    expect(runs()).toBe(1);
    const second = await plan();
    expect(runs()).toBe(1);
    expect(second).toBe(first);
    expect(second).toContain('first-org');
    // Owner-only, like the rest of the state directory.
    const cache = path.join(world.env.CONVERGE_DIR!, 'synth-cache');
    expect(fs.statSync(cache).mode & 0o077).toBe(0);
  });

  test('a changed source file runs it again', async () => {
    writeApp(dir, source('second-org'));
    expect(await plan()).toContain('second-org');
    expect(runs()).toBe(2);
    await plan();
    expect(runs()).toBe(2);
  });

  test('a changed lockfile runs it again', async () => {
    fs.writeFileSync(path.join(dir, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}\n');
    await plan();
    expect(runs()).toBe(3);
  });

  test('a changed value of a variable given to the app runs it again; its value is not stored', async () => {
    const value = 'org-from-env-5c1d';
    expect(await plan(['--synth-env', 'ORG_NAME'], { ORG_NAME: value })).toContain(value);
    expect(runs()).toBe(4);
    await plan(['--synth-env', 'ORG_NAME'], { ORG_NAME: value });
    expect(runs()).toBe(4);
    expect(await plan(['--synth-env', 'ORG_NAME'], { ORG_NAME: `${value}-2` })).toContain(`${value}-2`);
    expect(runs()).toBe(5);
    // An allow-listed variable (CDKTF_*) too.
    await plan([], { CDKTF_SETTING_OF_TEST: 'setting-value-8d2f' });
    expect(runs()).toBe(6);
    const cache = path.join(world.env.CONVERGE_DIR!, 'synth-cache');
    const stored = fs.readdirSync(cache, { recursive: true }).map(String)
      .filter((f) => fs.statSync(path.join(cache, f)).isFile())
      .map((f) => fs.readFileSync(path.join(cache, f), 'utf8')).join('\n');
    expect(stored).not.toContain('setting-value-8d2f');
  });

  test('a withheld variable the app read is still warned about when the cache answers', async () => {
    const env = { ORG_NAME: 'withheld-org-3b7a' };
    const first = await cliAsync(['plan'], { ...world.env, ...env }, dir);
    const before = runs();
    const second = await cliAsync(['plan'], { ...world.env, ...env }, dir);
    expect(runs()).toBe(before);
    for (const r of [first, second]) {
      expect(r.status).toBe(0);
      expect(r.stderr).toContain('the app read ORG_NAME, which is set here but withheld from synthesis');
      expect(`${r.stdout}${r.stderr}`).not.toContain('withheld-org-3b7a');
    }
  });

  test('--no-synth-cache and CONVERGE_SYNTH_CACHE=0 run it every time', async () => {
    const before = runs();
    await plan(['--no-synth-cache']);
    expect(runs()).toBe(before + 1);
    await plan([], { CONVERGE_SYNTH_CACHE: '0' });
    expect(runs()).toBe(before + 2);
  });

  test('--synth-dir ignores the cache', async () => {
    const before = runs();
    writeApp(dir, source('third-org'));
    const out = path.join(dir, 'cdktf.out');
    expect(await plan(['--synth-dir', out])).not.toContain('third-org');
    expect(runs()).toBe(before);
  });
});

// A value the app seals (`SecretValue.unsafePlainText`) is sealed under a one-run key; the cache keeps
// it sealed under the state key instead, never in clear, and a plan from the cache sees no change.
describe('the synthesis cache and a secret sealed in the app', () => {
  let world: TestWorld;
  let dir: string;
  let counter: string;
  const sealed = 'sealed-in-app-cache-71c4';
  beforeAll(async () => {
    world = await startWorld();
    dir = tempDir('converge-app-cache-sealed-');
    counter = path.join(tempDir('converge-app-counter-'), 'runs');
    linkModules(dir);
    writeApp(dir, `
import * as fs from 'fs';
import { App, TerraformStack } from 'cdktf';
import { secrets, SecretValue } from 'cdk-converge';
fs.appendFileSync(${JSON.stringify(counter)}, 'x');
const app = new App();
const stack = new TerraformStack(app, 'sealed');
new secrets.KvSecret(stack, 'kv', { path: 'cache/a', data: { token: SecretValue.unsafePlainText('${sealed}') } });
app.synth();
`);
  });
  afterAll(async () => { await world.stop(); fs.rmSync(dir, { recursive: true, force: true }); fs.rmSync(path.dirname(counter), { recursive: true, force: true }); });

  test('is applied, then planned from the cache with no change; the cache never holds it in clear', async () => {
    const apply = await cliAsync(['apply', '--auto-approve'], world.env, dir);
    expect(apply.status).toBe(0);
    const plan = await cliAsync(['plan', '--detailed-exitcode'], world.env, dir);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);
    expect(fs.readFileSync(counter, 'utf8')).toBe('x');
    const got = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/cache/a`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(((await got.json()) as { data: { data: unknown } }).data.data).toEqual({ token: sealed });
    const cache = path.join(world.env.CONVERGE_DIR!, 'synth-cache');
    const files = fs.readdirSync(cache, { recursive: true }).map(String).filter((f) => fs.statSync(path.join(cache, f)).isFile());
    expect(files.some((f) => f.endsWith('cdk.tf.json'))).toBe(true);
    for (const f of files) {
      expect(fs.statSync(path.join(cache, f)).mode & 0o077).toBe(0);
      expect(fs.readFileSync(path.join(cache, f), 'utf8')).not.toContain(sealed);
    }
  });
});
