import * as fs from 'fs';
import * as path from 'path';
import { cli, ROOT } from '../support/harness';

// `converge --version` is the first thing a user runs after installing it.
describe('converge --version', () => {
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  test.each([['--version'], ['-V']])('%s prints the package version and exits 0', (flag) => {
    const r = cli([flag], { PATH: process.env.PATH });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(version);
    expect(r.status).toBe(0);
  });
});
