import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { sharedBuild } from './packaged';

// What the test files share in a jest run (the npm tarball): built once, and a builder that failed or was killed
// leaves nothing another test file waits on forever (issue 34 item 5: no cascade from a failed test).
describe('sharedBuild', () => {
  const unique = () => `shared-build-test-${process.pid}-${Math.random().toString(36).slice(2)}`;

  test('askers at the same time get one build, and its path', async () => {
    const name = unique();
    let builds = 0;
    const build = async (dir: string) => {
      builds++;
      await new Promise((r) => setImmediate(r));
      fs.writeFileSync(path.join(dir, 'artifact'), 'x');
      return path.join(dir, 'artifact');
    };
    const got = await Promise.all([sharedBuild(name, ['package.json'], build), sharedBuild(name, ['package.json'], build), sharedBuild(name, ['package.json'], build)]);
    expect(builds).toBe(1);
    expect(new Set(got).size).toBe(1);
    expect(fs.readFileSync(got[0], 'utf8')).toBe('x');
  });

  test('a failed build fails every asker with its error, and is not retried within the run', async () => {
    const name = unique();
    let builds = 0;
    const build = async () => { builds++; await new Promise((r) => setImmediate(r)); throw new Error('npm pack exited 1'); };
    const got = await Promise.allSettled([sharedBuild(name, ['package.json'], build), sharedBuild(name, ['package.json'], build)]);
    expect(got.map((g) => g.status)).toEqual(['rejected', 'rejected']);
    for (const g of got) expect(String((g as PromiseRejectedResult).reason)).toContain('npm pack exited 1');
    await expect(sharedBuild(name, ['package.json'], build)).rejects.toThrow(/npm pack exited 1/);
    expect(builds).toBe(1);
  });

  test('a build whose process is gone (a killed worker) is built again by the next asker, not waited for', async () => {
    const name = unique();
    // What a worker killed mid-build leaves: its directory and owner, no done.json.
    const dead = spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim();
    await sharedBuild(name, ['package.json'], async (dir) => {
      const base = path.dirname(dir);
      fs.writeFileSync(path.join(base, 'owner.json'), JSON.stringify({ pid: Number(dead) }));
      throw new Error('killed');
    }).catch(() => undefined);
    // Made to look unfinished: the killed builder wrote no result.
    const base = fs.readdirSync(path.join(process.env.CONVERGE_JEST_TMPDIR!, 'converge-shared')).find((d) => d.startsWith(`${name}-`))!;
    fs.rmSync(path.join(process.env.CONVERGE_JEST_TMPDIR!, 'converge-shared', base, 'done.json'));
    const got = await sharedBuild(name, ['package.json'], async (dir) => { fs.writeFileSync(path.join(dir, 'a'), 'y'); return path.join(dir, 'a'); });
    expect(fs.readFileSync(got, 'utf8')).toBe('y');
  });
});
