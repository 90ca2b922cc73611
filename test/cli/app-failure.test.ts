import * as fs from 'fs';
import * as path from 'path';
import { condenseAppFailure } from '../../lib/cli/app-failure';
import { cliAsync, ROOT, tempDir } from '../support/harness';

// A construct error in the app is one line a user acts on: print it alone (the trace with --log-level debug).
describe('a construct error while synthesizing', () => {
  let app: string;
  beforeAll(() => {
    app = tempDir('converge-bad-app-');
    fs.mkdirSync(path.join(app, 'node_modules'));
    fs.symlinkSync(ROOT, path.join(app, 'node_modules', 'cdk-converge'), 'dir');
    for (const p of ['cdktf', 'constructs']) fs.symlinkSync(path.join(ROOT, 'node_modules', p), path.join(app, 'node_modules', p), 'dir');
    fs.writeFileSync(path.join(app, 'main.ts'), `import { App, TerraformStack } from 'cdktf';
import { platform } from 'cdk-converge';
const app = new App();
new platform.Organization(new TerraformStack(app, 'dev'), 'org', { name: 'acme', email: 'ops@acme.io', colour: 'red' } as any);
app.synth();
`);
    const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    fs.writeFileSync(path.join(app, 'cdktf.json'), JSON.stringify({ app: `"${process.execPath}" "${tsx}" main.ts` }));
  });
  afterAll(() => fs.rmSync(app, { recursive: true, force: true }));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };

  test('leads with the construct path, field and reason, with no stack trace', async () => {
    const r = await cliAsync(['plan'], env, app);
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^Error: dev\/org: colour is not a field of platform\.OrganizationProps .*\(ValidationError\)$/);
    expect(lines[1]).toMatch(/^The app .* exited with 1; --log-level debug shows its whole output\.$/);
    expect(lines).toHaveLength(2);
  });

  test('--log-level debug shows the whole output of the app, its trace included', async () => {
    const r = await cliAsync(['--log-level', 'debug', 'plan'], env, app);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('synth failed:');
    expect(r.stderr).toMatch(/\n\s+at new Organization /);
  });

  test('Python: the StructKeyError line first, not the banner, the traceback nor the synth header', () => {
    const python = ['synth failed: "python3 main.py" exited with 1',
      "b'!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!'",
      "b'!!  Node 20 is end-of-life and not supported anymore by this software since 2026-10-30.  !!'",
      "b'!!  Please upgrade to a supported node version as soon as possible.                      !!'",
      "b'!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!'",
      'Traceback (most recent call last):',
      '  File "/app/main.py", line 9, in <module>',
      '    mesh.ServiceRouter(stack, "web-router", name="web", routes=[{"match": {"http": {"path_prefx": "/v2"}}}])',
      '  File "/app/.venv/lib/python3.12/site-packages/cdk_converge/_struct_dicts.py", line 50, in _to_struct',
      '    raise StructKeyError(f"{field} is not a field of {_struct_name(cls)} ({hint})")',
      'cdk_converge._struct_dicts.StructKeyError: web-router: routes[0].match.http.path_prefx is not a field of mesh.RouteHttpMatch (did you mean path_prefix?)',
    ].join('\n');
    expect(condenseAppFailure(python)).toBe('web-router: routes[0].match.http.path_prefx is not a field of mesh.RouteHttpMatch (did you mean path_prefix?) (StructKeyError)\n'
      + 'The app "python3 main.py" exited with 1; --log-level debug shows its whole output.');
  });

  test('other errors are left as they are', () => {
    expect(condenseAppFailure('no stacks in cdktf.out (was the app synthesized?)')).toBe('no stacks in cdktf.out (was the app synthesized?)');
  });
});
