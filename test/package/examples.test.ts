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

  test('jsii-rosetta compiles every example (strict)', () => {
    const dir = tempDir('converge-rosetta-');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'jsii-rosetta', 'bin', 'jsii-rosetta'), 'extract', '--strict',
      '--cache-to', path.join(dir, 'tablet.json'), ROOT], { cwd: ROOT, encoding: 'utf8', timeout: 300_000,
      env: { ...process.env, JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1' } });
    fs.rmSync(dir, { recursive: true, force: true });
    const diagnostics = `${r.stdout}${r.stderr}`.split('\n').filter((l) => /error|\.ts:\d+/.test(l)).join('\n');
    expect(diagnostics).toBe('');
    expect(r.status).toBe(0);
  }, 300_000);
});
