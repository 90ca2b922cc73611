import * as fs from 'fs';
import * as path from 'path';
import { cliAsync, ROOT, startWorld, tempDir, TestWorld } from '../support/harness';
import { linkModules, run } from '../support/packaged';

// `converge init` creates an app that plans against the emulator out of the box. Instead of
// `npm install`, the app's node_modules link to the repo (linkModules).
describe('converge init', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('creates a cdktf app that plans, applies and tests out of the box', async () => {
    const app = path.join(tempDir('converge-init-'), 'payments-app');
    let r = await cliAsync(['init', app], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.readdirSync(app).sort()).toEqual(['.gitignore', 'README.md', 'cdktf.json', 'jest.config.js', 'main.test.ts', 'main.ts', 'package.json', 'tsconfig.json']);
    const pkg = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
    const own = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.dependencies['cdk-converge']).toBe(`^${own.version}`);
    expect(JSON.parse(fs.readFileSync(path.join(app, 'cdktf.json'), 'utf8')).app).toBe('npx tsx main.ts');
    linkModules(app);

    r = await cliAsync(['plan', '--detailed-exitcode'], world.env, app);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/\+ org \(platform\.Organization\) will be created/);
    expect(r.stdout).toMatch(/Plan: 2 to add, 0 to change, 0 to replace, 0 to destroy/);
    r = await cliAsync(['apply', '--auto-approve'], world.env, app);
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--detailed-exitcode'], world.env, app);
    expect(r.status).toBe(0);

    // The app's own unit test passes.
    const jest = await run(process.execPath, [path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--rootDir', app, '--ci'], { cwd: app });
    expect(jest.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
    expect(jest.status).toBe(0);
  }, 120_000);

  test('refuses a directory that is not empty', async () => {
    const dir = tempDir('converge-init-');
    fs.writeFileSync(path.join(dir, 'main.ts'), '// mine');
    const r = await cliAsync(['init', dir], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is not empty/);
    expect(fs.readFileSync(path.join(dir, 'main.ts'), 'utf8')).toBe('// mine');
  });
});
