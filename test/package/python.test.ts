import * as fs from 'fs';
import * as path from 'path';
import { Client } from 'pg';
import { DesiredStack } from '../../lib/core/model';
import { readSynthDir } from '../../lib/core/synth/read-synth';
import { allFiles, cliAsync, ROOT, startWorld, tempDir, TestWorld } from '../support/harness';
import { run } from '../support/packaged';

// The Python package for real: the wheel `npm run package` builds (scripts/package-python.js), installed with
// cdktf and constructs from PyPI into a fresh virtual environment, runs examples/python-quickstart through the
// CLI against the emulator; its desired state equals its TypeScript twin's (twin.ts). The first tests take the
// user's path (docs/packages.md): the venv activated, `converge` (the command pip put in the venv's bin), run
// from the app's directory.

describe('Python package', () => {
  const dir = path.join(ROOT, 'examples', 'python-quickstart');
  const work = tempDir('converge-python-');
  const venvBin = path.join(work, 'venv', 'bin');
  const password = 'py-quickstart-db-password-7c2e';
  const silence = { JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1', JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: process.versions.node.split('.')[0] };
  let world: TestWorld;
  let pyEnv: NodeJS.ProcessEnv;

  const must = async (cmd: string, args: string[], env = pyEnv, cwd = work) => {
    const r = await run(cmd, args, { cwd, env });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stderr}${r.stdout}`);
    return r;
  };
  const synth = async (cmd: string, args: string[]): Promise<DesiredStack[]> => {
    const out = tempDir('converge-python-synth-');
    await must(cmd, args, { ...pyEnv, CDKTF_OUTDIR: out }, dir);
    const stacks = readSynthDir(out);
    fs.rmSync(out, { recursive: true, force: true });
    return stacks;
  };

  beforeAll(async () => {
    pyEnv = { ...process.env, ...silence, PATH: `${venvBin}:${process.env.PATH}` };
    const pip = ['-m', 'pip', 'install', '--quiet', '--no-input', '--disable-pip-version-check'];
    // The wheel is built while the venv gets cdktf and constructs from PyPI (mostly waiting on the network), and the
    // emulator starts; then the wheel goes in, as `pip install cdk_converge-….whl` after them.
    const [built] = await Promise.all([
      must(process.execPath, [path.join(ROOT, 'scripts', 'package-python.js'), path.join(work, 'out')], { ...process.env, ...silence }, ROOT),
      (async () => {
        await must('python3', ['-m', 'venv', path.join(work, 'venv')], { ...process.env });
        await must(path.join(venvBin, 'python'), [...pip, 'cdktf', 'constructs']);
      })(),
      (async () => { world = await startWorld({}, { ...silence, PATH: pyEnv.PATH!, QUICKSTART_DB_PASSWORD: password }); })(),
    ]);
    const wheel = built.stdout.split('\n').find((l) => l.endsWith('.whl'));
    expect(wheel).toMatch(/cdk_converge-[\d.]+-py3-none-any\.whl$/);
    await must(path.join(venvBin, 'python'), [...pip, wheel!, 'cdktf', 'constructs']);
  });
  afterAll(async () => {
    await world?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** `script` in bash with the venv activated, in an environment with neither the venv nor jsii's silencing variables. */
  const inVenv = (script: string, cwd: string, extra: NodeJS.ProcessEnv = {}) => {
    const env: NodeJS.ProcessEnv = { ...world.env, PATH: process.env.PATH, ...extra };
    for (const k of Object.keys(silence)) delete env[k];
    return run('bash', ['-c', `. ${JSON.stringify(path.join(venvBin, 'activate'))} && ${script}`], { cwd, env });
  };
  /** A Python app in a new directory: cdktf.json runs `python3 main.py`, as `converge init --language python` writes it. */
  const pythonApp = (main: string) => {
    const app = fs.mkdtempSync(path.join(work, 'app-'));
    fs.writeFileSync(path.join(app, 'cdktf.json'), JSON.stringify({ language: 'python', app: 'python3 main.py', output: 'cdktf.out' }));
    fs.writeFileSync(path.join(app, 'main.py'), main);
    return app;
  };

  test("with the venv activated, the venv's converge plans the app from its directory, with the venv's Python and no jsii banner", async () => {
    const r = await inVenv('command -v converge && converge plan --detailed-exitcode', dir);
    expect(r.stdout.split('\n')[0]).toBe(path.join(venvBin, 'converge'));
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/Plan: 6 to add, 0 to change, 0 to replace, 0 to destroy/);
    expect(r.status).toBe(2);
  });

  test('a value of the wrong type names the construct path and the field', async () => {
    const app = pythonApp([
      'from cdktf import App, TerraformStack',
      'from cdk_converge import platform',
      'app = App()',
      'stack = TerraformStack(app, "typed")',
      'platform.Organization(stack, "org", name=123, email="ops@acme.io")',
      'app.synth()',
    ].join('\n'));
    const r = await inVenv('converge plan', app);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/typed\/org: name: .*\bstr\b.*\bint\b/);
    expect(r.stderr).not.toContain('!!');
  });

  test('an app that reads a variable withheld from synthesis is told its name and --synth-env, never its value', async () => {
    const app = pythonApp([
      'import os',
      'from cdktf import App, TerraformStack',
      'from cdk_converge import platform',
      'app = App()',
      'stack = TerraformStack(app, "withheld")',
      'platform.Organization(stack, "org", name=os.environ.get("ORG_NAME", "default-org"), email="ops@acme.io")',
      'if os.getenv("NEVER_SET_ANYWHERE_7A"):',
      '    raise SystemExit("unexpected")',
      'app.synth()',
    ].join('\n'));
    const value = 'acme-from-env-4b1d';
    let r = await inVenv('converge plan', app, { ORG_NAME: value });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('default-org');
    expect(r.stderr).toContain('the app read ORG_NAME, which is set here but withheld from synthesis');
    expect(r.stderr).toContain('--synth-env ORG_NAME');
    expect(r.stderr.match(/the app read/g)).toHaveLength(1);
    expect(`${r.stdout}${r.stderr}`).not.toContain(value);
    r = await inVenv('converge plan --synth-env ORG_NAME', app, { ORG_NAME: value });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(value);
  });

  test('converge init --language python makes an app that plans against the emulator', async () => {
    const app = path.join(work, 'py-init', 'payments');
    let r = await cliAsync(['init', app, '--language', 'python'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.readdirSync(app).sort()).toEqual(['.gitignore', 'README.md', 'cdktf.json', 'main.py', 'requirements.txt']);
    expect(fs.readFileSync(path.join(app, 'requirements.txt'), 'utf8')).toMatch(/^cdk-converge>=\d/);
    const readme = fs.readFileSync(path.join(app, 'README.md'), 'utf8');
    expect(readme).toContain('. .venv/bin/activate');
    expect(readme).toContain('--synth-env ORG_NAME');
    // The venv already holds what requirements.txt names (the wheel before a release).
    r = await inVenv('converge plan --detailed-exitcode', app);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/\+ org \(platform\.Organization\) will be created/);
    expect(r.stdout).toMatch(/Plan: 2 to add, 0 to change, 0 to replace, 0 to destroy/);
    expect(r.status).toBe(2);
  });

  test('the Python app synthesizes the same desired state as its TypeScript twin', async () => {
    const py = await synth(path.join(venvBin, 'python'), ['main.py']);
    const ts = await synth(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'twin.ts']);
    expect(Object.keys(py[0].resources).sort()).toEqual(['db', 'org', 'web-defaults', 'web-resolver', 'web-router', 'web-splitter']);
    expect(py).toEqual(ts);
    // The dicts spelt the Python way were read (not dropped as unknown keys).
    expect((py[0].resources['web-resolver'].spec as any).subsets.v2.onlyPassing).toBe(true);
    expect((py[0].resources['web-router'].spec as any).routes[1].match.http.pathPrefix).toBe('/admin');
  });

  test('plan, apply, a plan with no changes, destroy', async () => {
    const cli = (...args: string[]) => cliAsync(args, world.env, dir);
    let r = await cli('plan', '--detailed-exitcode');
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/Plan: 6 to add, 0 to change, 0 to replace, 0 to destroy/);
    expect(r.status).toBe(2);

    r = await cli('apply', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const kv = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/acme-py/db`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(((await kv.json()) as any).data.data).toEqual({ user: 'app', password });
    const router = await fetch(`${world.env.MESH_HTTP_ADDR}/v1/config/service-router/web`, { headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! } });
    expect(((await router.json()) as any).Routes[1]).toMatchObject({ Match: { HTTP: { PathPrefix: '/admin' } }, Destination: { ServiceSubset: 'v1', RequestTimeout: '10s' } });

    r = await cli('plan', '--detailed-exitcode');
    expect(r.stdout).toMatch(/Plan: 0 to add, 0 to change, 0 to replace, 0 to destroy|No changes/);
    expect(r.status).toBe(0);
    for (const f of allFiles(world.dir)) expect([f.file, f.text.includes(password)]).toEqual([f.file, false]);

    r = await cli('destroy', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/acme-py/db`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } })).status).toBe(404);
  });

  test("docs/secrets-database-directory.md's Python DatabaseCredentials sample runs as it is against an emulator with its own PostgreSQL", async () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'secrets-database-directory.md'), 'utf8');
    const sample = /^```python sample=secrets\.DatabaseCredentials\n([\s\S]*?)^```$/m.exec(doc)![1];
    const app = tempDir('converge-python-db-sample-');
    fs.writeFileSync(path.join(app, 'main.py'), `from cdktf import App, TerraformStack\napp = App()\nstack = TerraformStack(app, "db-sample")\n${sample}\napp.synth()\n`);
    fs.writeFileSync(path.join(app, 'cdktf.json'), JSON.stringify({ language: 'python', app: `${path.join(venvBin, 'python')} main.py`, output: 'cdktf.out' }));
    const pg = await startWorld({ postgres: true }, { ...silence, PATH: pyEnv.PATH!, CONVERGE_DIR: path.join(app, '.converge') });
    try {
      // What `set -a; . ./emulator.env` gives a shell: the database's address (named for synthesis) and vault_root's password.
      expect(pg.env.CONVERGE_SYNTH_ENV).toBe('DB_ADDRESS');
      let r = await cliAsync(['apply', '--auto-approve'], pg.env, app);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const kv = await fetch(`${pg.env.SECRETS_ADDR}/v1/secret/data/app/db`, { headers: { 'x-secrets-token': pg.env.SECRETS_TOKEN! } });
      const issued = ((await kv.json()) as any).data.data as { username: string; password: string };
      const client = new Client({ connectionString: `postgresql://${issued.username}:${encodeURIComponent(issued.password)}@${pg.env.DB_ADDRESS}/app` });
      await client.connect();
      await client.end();
      r = await cliAsync(['destroy', '--auto-approve'], pg.env, app);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    } finally {
      await pg.stop();
      fs.rmSync(app, { recursive: true, force: true });
    }
  });

  test('a dict key that is no field of its struct is refused with the construct path and a hint', async () => {
    const app = path.join(work, 'bad.py');
    fs.writeFileSync(app, [
      'from cdktf import App, TerraformStack',
      'from cdk_converge import mesh',
      'stack = TerraformStack(App(), "s")',
      'mesh.ServiceRouter(stack, "router", name="web", routes=[{"match": {"http": {"path_prefx": "/x"}}}])',
    ].join('\n'));
    const r = await run(path.join(venvBin, 'python'), [app], { cwd: work, env: pyEnv });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('s/router: routes[0].match.http.path_prefx is not a field of mesh.RouteHttpMatch (did you mean path_prefix?)');
  });

  // `converge validate` on a Python app (issue 34 item 4): the constructs record each invalid prop in the jsii JS
  // runtime the Python app runs, so every mistake is reported at once, as for TypeScript. Same wheel, same venv.
  test('converge validate: three mistakes in three constructs, three errors with their paths and fields, exit 1', async () => {
    const app = fs.mkdtempSync(path.join(work, 'validate-'));
    fs.writeFileSync(path.join(app, 'cdktf.json'), JSON.stringify({ language: 'python', app: `${path.join(venvBin, 'python')} main.py` }));
    fs.writeFileSync(path.join(app, 'main.py'), [
      'from cdktf import App, TerraformStack',
      'from cdk_converge import platform, secrets, mesh',
      'app = App()',
      'stack = TerraformStack(app, "pychecked")',
      'platform.Organization(stack, "org", name="acme", email="ops@acme.io", session_timeout=0)',
      'secrets.KvSecret(stack, "kv", path="app/db", data={"user": "app"}, max_versions=-1)',
      'mesh.ServiceDefaults(stack, "web", name="web/v2")',
      'app.synth()',
      '',
    ].join('\n'));
    const env = {
      PATH: `${venvBin}:${process.env.PATH}`, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, NO_COLOR: '1', ...silence,
      CONVERGE_DIR: path.join(work, '.converge-validate'),
      // Closed ports: validate contacts no API.
      PLATFORM_ADDRESS: 'http://127.0.0.1:9', SECRETS_ADDR: 'http://127.0.0.1:9', MESH_HTTP_ADDR: 'http://127.0.0.1:9',
    };
    const r = await cliAsync(['validate'], env, app);
    expect(r.status).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('Error: pychecked/'));
    expect(errors).toEqual([
      expect.stringMatching(/^Error: pychecked\/org: sessionTimeout must be an integer/),
      expect.stringMatching(/^Error: pychecked\/kv: maxVersions must be an integer from 0/),
      expect.stringMatching(/^Error: pychecked\/web: name "web\/v2" must not contain "\/"/),
    ]);
  });
});
