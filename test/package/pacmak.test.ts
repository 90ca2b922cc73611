import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, tempDir } from '../support/harness';

// jsii-pacmak turns the built assembly (.jsii) into the npm tarball and the sources of the Python, Java,
// .NET and Go packages (--code-only). The sources are generated once, with the examples' tablet as `npm run package`
// does, by examples.test.ts, which checks them too. The Python wheel is built and run by python.test.ts; Java and Go
// are built and run by scripts/test-languages.sh (minutes of Maven); .NET has no toolchain here (docs/packages.md).
describe('jsii-pacmak', () => {
  const out = tempDir('converge-pacmak-');
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  const pacmak = (args: string[]) => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'jsii-pacmak', 'bin', 'jsii-pacmak'), '--outdir', out, ...args],
      { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env: { ...process.env, JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1' } });
    expect(`${r.status}\n${r.stderr.replace(/^(!!.*|npm warn.*)\n/gm, '')}`).toMatch(/^0\n/);
  };

  test('generates the npm tarball cleanly', () => {
    pacmak(['--targets', 'js']);
    expect(fs.readdirSync(path.join(out, 'js'))).toEqual([expect.stringMatching(/^cdk-converge@[\d.]+\.jsii\.tgz$/)]);
  }, 300_000);
});
