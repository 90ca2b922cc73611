import * as fs from 'fs';
import * as path from 'path';
import { cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';
import { linkModules, writeApp } from '../support/packaged';

// Issue 34 §2: the app's environment is an allow-list; an app that reads a variable set in converge's
// environment but withheld from it is told so, with the variable's name and the fix, never its value.
// (Python apps: test/package/python.test.ts.)
describe('a TypeScript app that reads a withheld variable', () => {
  let world: TestWorld;
  let dir: string;
  const orgName = 'acme-from-env-9f3e';
  beforeAll(async () => {
    world = await startWorld();
    dir = tempDir('converge-app-withheld-');
    linkModules(dir);
    writeApp(dir, `
import { App, TerraformStack } from 'cdktf';
import { platform } from 'cdk-converge';
const app = new App();
const stack = new TerraformStack(app, 'withheld');
new platform.Organization(stack, 'org', { name: process.env.ORG_NAME ?? 'default-org', email: 'ops@acme.io' });
// Read, but not set anywhere: nothing to say.
if (process.env.NEVER_SET_ANYWHERE_7A) throw new Error('unexpected');
app.synth();
`);
  });
  afterAll(async () => { await world.stop(); fs.rmSync(dir, { recursive: true, force: true }); });

  test('is warned, naming the variable and --synth-env; the value is never printed', async () => {
    const r = await cliAsync(['plan'], { ...world.env, ORG_NAME: orgName }, dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('default-org');
    expect(r.stderr).toContain('the app read ORG_NAME, which is set here but withheld from synthesis');
    expect(r.stderr).toContain('--synth-env ORG_NAME');
    expect(r.stderr.match(/the app read/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('NEVER_SET_ANYWHERE_7A');
    expect(`${r.stdout}${r.stderr}`).not.toContain(orgName);
  });

  test('with --synth-env ORG_NAME, the app reads it and nothing is said', async () => {
    const r = await cliAsync(['plan', '--synth-env', 'ORG_NAME'], { ...world.env, ORG_NAME: orgName }, dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(orgName);
  });

  test('unset, it is not mentioned', async () => {
    const r = await cliAsync(['plan'], world.env, dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
