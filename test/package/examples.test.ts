import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, tempDir } from '../support/harness';

// Every public construct has an @example, and every example in the API reference (and the README)
// compiles: jsii-rosetta translates them for the Python, Java, .NET and Go docs. Fixtures: rosetta/.
describe('API examples', () => {
  const assembly = JSON.parse(fs.readFileSync(path.join(ROOT, '.jsii'), 'utf8')) as {
    types: Record<string, { kind: string; abstract?: boolean; base?: string; docs?: { example?: string } }>;
  };

  test('every concrete construct has an @example', () => {
    const isConstruct = (fqn?: string): boolean => !!fqn &&
      (fqn.startsWith('cdktf.') || fqn.startsWith('constructs.') || isConstruct(assembly.types[fqn]?.base));
    const missing = Object.entries(assembly.types)
      .filter(([, t]) => t.kind === 'class' && !t.abstract && isConstruct(t.base) && !t.docs?.example)
      .map(([fqn]) => fqn);
    expect(missing).toEqual([]);
  });

  const dir = tempDir('converge-rosetta-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const silence = { JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1', JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: process.versions.node.split('.')[0] };

  test('jsii-rosetta compiles every example (strict)', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'jsii-rosetta', 'bin', 'jsii-rosetta'), 'extract', '--strict',
      '--cache-to', path.join(dir, 'tablet.json'), ROOT], { cwd: ROOT, encoding: 'utf8', timeout: 300_000,
      env: { ...process.env, ...silence } });
    const diagnostics = `${r.stdout}${r.stderr}`.split('\n').filter((l) => /error|\.ts:\d+/.test(l)).join('\n');
    expect(diagnostics).toBe('');
    expect(r.status).toBe(0);
  }, 300_000);

  // `npm run package` runs `jsii-rosetta extract` first: pacmak then writes every example in the package's
  // own language (with --rosetta-unknown-snippets fail, an example missing from the tablet fails the build).
  test('the Python, Java, Go and C# packages show the examples in their own language', () => {
    const out = path.join(dir, 'out');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'jsii-pacmak', 'bin', 'jsii-pacmak'), '--code-only',
      '--targets', 'python', 'java', 'go', 'dotnet', '--outdir', out, '--rosetta-tablet', path.join(dir, 'tablet.json'),
      '--rosetta-unknown-snippets', 'fail'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env: { ...process.env, ...silence } });
    expect(`${r.status}\n${r.stderr.replace(/^(!!.*|npm warn.*)\n/gm, '')}`).toMatch(/^0\n/);
    const read = (...p: string[]) => fs.readFileSync(path.join(out, ...p), 'utf8');
    const pyReadme = read('python', 'README.md');
    expect(pyReadme).toMatch(/```python\n[^`]*from cdk_converge import/);
    expect(pyReadme).not.toMatch(/```(ts|typescript)\n/);
    expect(read('python', 'src', 'cdk_converge', 'mesh', '__init__.py')).toMatch(/Example::\s+mesh\.ServiceRouter\(stack, "web-router",\s+name="web"/);
    expect(read('go', 'cdkconverge', 'README.md')).toMatch(/```go\n/);
    expect(read('go', 'cdkconverge', 'mesh', 'ServiceRouter.go')).toContain('NewServiceRouter(stack, jsii.String("web-router"), &ServiceRouterProps{');
    expect(read('java', 'src', 'main', 'java', 'io', 'converge', 'cdk', 'mesh', 'ServiceRouter.java')).toContain('ServiceRouter.Builder.create(stack, "web-router")');
    expect(read('dotnet', 'Converge.Cdk', 'Converge', 'Cdk', 'Mesh', 'ServiceRouter.cs')).toContain('new ServiceRouter(stack, "web-router", new ServiceRouterProps {');
  }, 300_000);

  // The same sources (pacmak.test.ts packs the npm tarball): each package under its registry's name.
  test('the Python, Java, .NET and Go packages are generated cleanly under their names', () => {
    const out = path.join(dir, 'out');
    const read = (...p: string[]) => fs.readFileSync(path.join(out, ...p), 'utf8');
    expect(read('python', 'setup.py')).toMatch(/"name": "cdk-converge"/);
    expect(fs.existsSync(path.join(out, 'python', 'src', 'cdk_converge', '__init__.py'))).toBe(true);
    expect(fs.existsSync(path.join(out, 'python', 'src', 'cdk_converge', 'platform', '__init__.py'))).toBe(true);
    expect(read('java', 'pom.xml')).toMatch(/<groupId>io\.converge<\/groupId>\s*<artifactId>cdk-converge<\/artifactId>/);
    expect(read('dotnet', 'Converge.Cdk', 'Converge.Cdk.csproj')).toMatch(/<PackageId>Converge\.Cdk<\/PackageId>/);
    expect(read('go', 'cdkconverge', 'go.mod')).toMatch(/^module github\.com\/converge-iac\/cdk-converge-go\/cdkconverge$/m);
    expect(fs.existsSync(path.join(out, 'go', 'cdkconverge', 'TerraformBridge.go'))).toBe(true);
  });
});
