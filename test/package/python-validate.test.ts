import * as fs from 'fs';
import * as path from 'path';
import { cliAsync, ROOT, tempDir } from '../support/harness';
import { run } from '../support/packaged';

// `converge validate` on a Python app (issue 34 item 4): the constructs record each invalid prop in
// the jsii JS runtime the Python app runs, so every mistake is reported at once, as for TypeScript.
jest.setTimeout(240_000);

describe('converge validate, Python', () => {
  const work = tempDir('converge-python-validate-');
  const venvBin = path.join(work, 'venv', 'bin');
  const app = path.join(work, 'app');
  const silence = { JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1', JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: process.versions.node.split('.')[0] };
  let env: NodeJS.ProcessEnv;

  const must = async (cmd: string, args: string[], e: NodeJS.ProcessEnv, cwd = work) => {
    const r = await run(cmd, args, { cwd, env: e });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stderr}${r.stdout}`);
    return r;
  };

  beforeAll(async () => {
    const built = await must(process.execPath, [path.join(ROOT, 'scripts', 'package-python.js'), path.join(work, 'out')], { ...process.env, ...silence }, ROOT);
    const wheel = built.stdout.split('\n').find((l) => l.endsWith('.whl'));
    await must('python3', ['-m', 'venv', path.join(work, 'venv')], { ...process.env });
    await must(path.join(venvBin, 'python'), ['-m', 'pip', 'install', '--quiet', '--no-input', '--disable-pip-version-check', wheel!, 'cdktf', 'constructs'], process.env);
    fs.mkdirSync(app);
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
    env = {
      PATH: `${venvBin}:${process.env.PATH}`, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, NO_COLOR: '1', ...silence,
      CONVERGE_DIR: path.join(work, '.converge'),
      // Closed ports: validate contacts no API.
      PLATFORM_ADDRESS: 'http://127.0.0.1:9', SECRETS_ADDR: 'http://127.0.0.1:9', MESH_HTTP_ADDR: 'http://127.0.0.1:9',
    };
  });
  afterAll(() => { fs.rmSync(work, { recursive: true, force: true }); });

  test('three mistakes in three constructs: three errors with their paths and fields, exit 1', async () => {
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
