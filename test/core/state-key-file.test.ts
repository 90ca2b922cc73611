import * as fs from 'fs';
import * as path from 'path';
import { deriveKey, generateKey, stateKeySource } from '../../lib/core/crypto/state-key';
import { tempDir } from '../support/harness';

// A copy of fs whose functions can be replaced (node's own module properties cannot).
jest.mock('fs', () => ({ ...jest.requireActual('fs') }));

// The bridges of stacks that cdktf deploys in parallel start converge at once in one app directory:
// a run that finds no key file must not fail, nor replace the key, when another run creates it first.
describe('the generated key file', () => {
  const saved = { dir: process.env.CONVERGE_DIR, key: process.env.CONVERGE_STATE_KEY };
  afterEach(() => {
    jest.restoreAllMocks();
    process.env.CONVERGE_DIR = saved.dir;
    process.env.CONVERGE_STATE_KEY = saved.key;
  });

  test('a key file another run created after this run looked is used as it is', () => {
    const dir = tempDir('converge-key-');
    process.env.CONVERGE_DIR = dir;
    delete process.env.CONVERGE_STATE_KEY;
    const theirs = generateKey();
    fs.writeFileSync(path.join(dir, 'state.key'), theirs + '\n', { mode: 0o600 });
    // This run looked before the other run's file appeared.
    jest.spyOn(jest.requireMock<typeof fs>('fs'), 'existsSync').mockImplementation(() => false);
    const logged: string[] = [];
    const source = stateKeySource({ log: (m) => logged.push(m) });
    expect(source.key.equals(deriveKey(theirs))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'state.key'), 'utf8')).toBe(theirs + '\n');
    expect(fs.readdirSync(dir)).toEqual(['state.key']);
    expect(logged).toEqual([]);
  });

  test('a new key file is complete, mode 0600, and announced', () => {
    const dir = tempDir('converge-key-');
    process.env.CONVERGE_DIR = dir;
    delete process.env.CONVERGE_STATE_KEY;
    const logged: string[] = [];
    const source = stateKeySource({ log: (m) => logged.push(m) });
    const material = fs.readFileSync(path.join(dir, 'state.key'), 'utf8').trim();
    expect(source.key.equals(deriveKey(material))).toBe(true);
    expect(fs.statSync(path.join(dir, 'state.key')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['state.key']);
    expect(logged).toEqual([expect.stringContaining(`created a state key in ${path.join(dir, 'state.key')}`)]);
  });
});
