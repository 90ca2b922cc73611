import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT, tempDir } from './harness';

// npm test leaves nothing behind: every temporary directory lives under one per-run directory that
// the global teardown removes; and the project's own scripts print no jsii Node end-of-life banner.
describe('test hygiene', () => {
  test('temporary directories of tests, and of the processes they start, go under the run\'s own directory', () => {
    const run = process.env.CONVERGE_JEST_TMPDIR!;
    expect(path.basename(run)).toMatch(/^converge-jest-/);
    expect(os.tmpdir()).toBe(run);
    expect(path.dirname(tempDir())).toBe(run);
    const child = spawnSync(process.execPath, ['-p', 'require("os").tmpdir()'], { encoding: 'utf8' });
    expect(child.stdout.trim()).toBe(run);
  });

  test("every jsii tool the project's npm scripts run prints no Node end-of-life banner", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}` };
    delete env.JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION;
    delete env.JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION;
    const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    // Each command of a script that starts a jsii tool, with its environment prefix, asked only for its version.
    const jsiiCommands = Object.values(scripts).flatMap((s) => s.split('&&').map((c) => c.trim()))
      .map((c) => /^((?:\w+=\S+\s+)*)(jsii(?:-pacmak|-rosetta)?)\b/.exec(c)).filter((m): m is RegExpExecArray => m !== null);
    expect(jsiiCommands.map((m) => m[2]).sort()).toEqual(expect.arrayContaining(['jsii', 'jsii-pacmak', 'jsii-rosetta']));
    for (const m of jsiiCommands) {
      const r = spawnSync('sh', ['-c', `${m[1]}${m[2]} --version`], { cwd: ROOT, env, encoding: 'utf8', timeout: 240_000 });
      expect(r.status).toBe(0);
      expect(`${m[2]}: ${r.stdout}${r.stderr}`).not.toMatch(/end-of-life|!!!!/);
    }
  });

  // Issue 34 item 5: on a busy machine (a CI runner) a slow test is not a wrong one. jest.config.js's testTimeout is
  // the one limit; a file-wide or per-test timeout below it failed suites that pass alone.
  test('the slowest files start first, also without a timing cache, and the list names files that exist', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Sequencer = require('./slow-first-sequencer.js') as new () => { sort(t: { path: string; duration?: number; context: unknown }[]): { path: string }[] };
    const src = fs.readFileSync(path.join(ROOT, 'test', 'support', 'slow-first-sequencer.js'), 'utf8');
    const listed = [...src.matchAll(/'(test\/[^']+\.test\.ts)'/g)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThan(5);
    for (const f of listed) expect(fs.existsSync(path.join(ROOT, f))).toBe(true);
    // A small fast file, then two of the listed ones, as a fresh clone's jest might order them (no cache: by size).
    const context = { config: { cacheDirectory: tempDir('sequencer-cache-'), name: 'hygiene' }, hasteFS: { getSize: () => 1 } };
    const tests = [path.join(ROOT, 'test', 'core', 'semaphore.test.ts'), path.join(ROOT, listed[1]), path.join(ROOT, listed[0])].map((p) => ({ path: p, context }));
    expect(new Sequencer().sort(tests).map((t) => path.relative(ROOT, t.path))).toEqual([listed[0], listed[1], path.join('test', 'core', 'semaphore.test.ts')]);
  });

  test('no test file sets a timeout below jest.config.js\'s testTimeout', () => {
    const limit = (require(path.join(ROOT, 'jest.config.js')) as { testTimeout: number }).testTimeout;
    const short: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts')) {
          fs.readFileSync(p, 'utf8').split('\n').forEach((line, i) => {
            // jest.setTimeout(N), and the N_000 closing test(..., N) / beforeAll(..., N)
            for (const m of line.matchAll(/jest\.setTimeout\(([\d_]+)\)|\}, (\d+_000)\);$/g)) {
              if (Number((m[1] ?? m[2]).replace(/_/g, '')) < limit) short.push(`${path.relative(ROOT, p)}:${i + 1}: ${line.trim()}`);
            }
          });
        }
      }
    };
    walk(path.join(ROOT, 'test'));
    expect(short).toEqual([]);
  });
});
