import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { writeEnvFileAtomically } from '../../lib/cli/emulator-env-file';
import { writeFileDurably, writeFileDurablyAsync } from '../../lib/core/durable-write';

// Issue 32 item 4: a file converge replaces in a directory others can write (`--write-env /tmp/x.env`,
// a shared state directory) never writes through a file or link another user planted beside it.
describe('durable writes in a directory others can write', () => {
  let dir: string;
  let elsewhere: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-durable-'));
    fs.chmodSync(dir, 0o1777); // as /tmp
    elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-attacker-'));
  });
  afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); fs.rmSync(elsewhere, { recursive: true, force: true }); });

  test('the env file: a 0666 file planted at the temporary name the old code used (the attacker keeps a link to it) receives nothing', () => {
    const file = path.join(dir, 'emulator.env');
    const planted = path.join(dir, `.emulator.env.${process.pid}.tmp`);
    fs.writeFileSync(planted, '');
    fs.chmodSync(planted, 0o666);
    const kept = path.join(elsewhere, 'kept');
    fs.linkSync(planted, kept);
    writeEnvFileAtomically(file, 'SECRETS_TOKEN=emu-root-0123\n');
    expect(fs.readFileSync(kept, 'utf8')).toBe('');
    expect(fs.readFileSync(file, 'utf8')).toBe('SECRETS_TOKEN=emu-root-0123\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  test('a link planted at the file itself is replaced, not written through; the mode is exact whatever the umask', async () => {
    const target = path.join(elsewhere, 'stolen');
    const file = path.join(dir, 'state.json');
    fs.symlinkSync(target, file);
    const umask = process.umask(0);
    try {
      writeFileDurably(file, 'one');
      expect(fs.existsSync(target)).toBe(false);
      expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      await writeFileDurablyAsync(file, 'two', { mode: 0o640 });
      expect(fs.readFileSync(file, 'utf8')).toBe('two');
      expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    } finally {
      process.umask(umask);
    }
    // Temporary names are random and nothing is left behind.
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });

  test('a failed write leaves the old file and no temporary file', () => {
    const file = path.join(dir, 'plan.json');
    writeFileDurably(file, 'old');
    expect(() => writeFileDurably(file, { bad: true } as unknown as string)).toThrow();
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
    expect(fs.readdirSync(dir)).toEqual(['plan.json']);
  });
});
