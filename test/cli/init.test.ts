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
    expect(fs.readdirSync(app).sort()).toEqual(['.gitignore', 'README.md', 'cdktf.json', 'jest.config.js', 'main.test.ts', 'main.ts', 'package.json', 'tsconfig.json', 'vendor']);
    const pkg = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
    // This converge runs from a checkout: the app gets that checkout packed into vendor/ and depends on it
    // by a relative path, so that a clone of the app installs anywhere.
    const vendored = `vendor/cdk-converge-${JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}.tgz`;
    expect(pkg.dependencies['cdk-converge']).toBe(`file:${vendored}`);
    expect(fs.existsSync(path.join(app, vendored))).toBe(true);
    expect(r.stdout).toContain(`depending on cdk-converge from the directory ${fs.realpathSync(ROOT)}, copied into ${vendored}`);
    // Every command it prints works through npx (Node 20 itself reads --env-file).
    const readme = fs.readFileSync(path.join(app, 'README.md'), 'utf8');
    for (const text of [readme, r.stdout, JSON.stringify(pkg.scripts)]) {
      expect(text).not.toMatch(/emulator[^\n]*--env-file/);
      expect(text).toContain('converge emulator --write-env .converge-emulator.env');
    }
    expect(readme).toContain('--detach');
    // Offline, cdktf's telemetry prints an error: the app's README turns it off; local Terraform state and saved plans stay out of git.
    expect(readme).toContain('export CHECKPOINT_DISABLE=1');
    const ignored = fs.readFileSync(path.join(app, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.converge/', 'cdktf.out/', 'terraform.tfstate*', 'terraform.*.tfstate*', '*.plan']));
    expect(pkg.scripts.plan).toBe('tsc --noEmit && converge plan');
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
  });

  test('a directory with other files is fine; a file it would write is never overwritten', async () => {
    const dir = tempDir('converge-init-');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    let r = await cliAsync(['init', dir, '--converge-spec', '^0.1.0'], world.env);
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(fs.existsSync(path.join(dir, 'main.ts'))).toBe(true);

    const other = tempDir('converge-init-');
    fs.writeFileSync(path.join(other, 'main.ts'), '// mine');
    fs.writeFileSync(path.join(other, 'README.md'), '# mine');
    r = await cliAsync(['init', other], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/already has README\.md, main\.ts: converge init overwrites no file/);
    expect(fs.readdirSync(other).sort()).toEqual(['README.md', 'main.ts']);
    expect(fs.readFileSync(path.join(other, 'main.ts'), 'utf8')).toBe('// mine');
  });

  test('npm run typecheck (run by npm run plan) reports a type error that tsx would not', async () => {
    const app = path.join(tempDir('converge-init-'), 'typed');
    expect((await cliAsync(['init', app, '--converge-spec', '^0.1.0'], world.env)).status).toBe(0);
    expect(fs.existsSync(path.join(app, '.npmrc'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8')).dependencies['cdk-converge']).toBe('^0.1.0');
    linkModules(app);
    const tsc = () => run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', app], { cwd: app });
    expect((await tsc()).status).toBe(0);
    const main = path.join(app, 'main.ts');
    fs.writeFileSync(main, fs.readFileSync(main, 'utf8').replace(", email: 'ops@example.com'", ''));
    const r = await tsc();
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/main\.ts.*Property 'email' is missing/s);
  });

  // Issue 34 §2: the app's README says the environment is an allow-list, and how to pass a variable.
  // (`--language python`, planned with the Python package: test/package/python.test.ts.)
  test('the README names --synth-env; --language is typescript by default, python on request, nothing else', async () => {
    const base = tempDir('converge-init-lang-');
    let r = await cliAsync(['init', path.join(base, 'ts'), '--converge-spec', '^0.1.0'], world.env);
    expect(r.status).toBe(0);
    expect(fs.existsSync(path.join(base, 'ts', 'main.ts'))).toBe(true);
    expect(fs.readFileSync(path.join(base, 'ts', 'README.md'), 'utf8')).toContain('--synth-env ORG_NAME');
    r = await cliAsync(['init', path.join(base, 'py'), '--language', 'python'], world.env);
    expect(r.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(base, 'py', 'cdktf.json'), 'utf8'))).toMatchObject({ language: 'python', app: 'python3 main.py' });
    expect(fs.readFileSync(path.join(base, 'py', 'README.md'), 'utf8')).toContain('--synth-env ORG_NAME');
    r = await cliAsync(['init', path.join(base, 'java'), '--language', 'java'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--language "java": one of typescript, python');
    expect(fs.existsSync(path.join(base, 'java'))).toBe(false);
  });
});
