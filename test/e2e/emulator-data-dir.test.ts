import * as fs from 'fs';
import * as path from 'path';
import { cliAsync, tempDir } from '../support/harness';

// Issue 32 item 4: `--data-dir` at a shared path (/tmp/...) that another user made, with their
// tokens.json in it, must not be adopted as it is (their root token would be ours, their journal
// our state). An existing data directory must be the user's own and writable by nobody else.
const ports = ['--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0'];
const bare = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TMPDIR: process.env.TMPDIR };

describe('converge emulator --data-dir refuses a directory others could have planted', () => {
  const planted = (mode: number) => {
    const dir = tempDir('converge-emu-shared-');
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, 'tokens.json'), JSON.stringify({ platform: 'planted-p', secrets: 'planted-root-token', mesh: 'planted-m' }));
    fs.chmodSync(dataDir, mode);
    return { dir, dataDir, envFile: path.join(dir, 'emulator.env') };
  };

  for (const mode of [0o777, 0o775, 0o757]) {
    test(`mode ${mode.toString(8)}: refused with the reason, nothing started, the planted token never used`, async () => {
      const { dir, dataDir, envFile } = planted(mode);
      for (const extra of [['--detach'], []]) {
        const r = await cliAsync(['emulator', ...ports, '--data-dir', dataDir, '--write-env', envFile, ...extra], bare, dir);
        if (r.status === 0) await cliAsync(['emulator', 'stop', envFile], bare, dir);
        expect([extra, r.status]).toEqual([extra, 1]);
        expect(r.stderr).toContain(dataDir);
        expect(r.stderr).toMatch(/writable by other users/);
        expect(r.stdout + r.stderr).not.toContain('planted-root-token');
        expect(fs.existsSync(envFile)).toBe(false);
      }
    });
  }

  const root = process.getuid?.() === 0;
  (root ? test : test.skip)('a directory owned by another user is refused, even when only its owner can write it', async () => {
    const { dir, dataDir, envFile } = planted(0o700);
    fs.chownSync(dataDir, 65534, 65534);
    const r = await cliAsync(['emulator', ...ports, '--data-dir', dataDir, '--write-env', envFile, '--detach'], bare, dir);
    if (r.status === 0) await cliAsync(['emulator', 'stop', envFile], bare, dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/owned by another user \(uid 65534\)/);
  });

  test('the user\'s own private directory is used as before', async () => {
    const { dir, dataDir, envFile } = planted(0o700);
    const r = await cliAsync(['emulator', ...ports, '--data-dir', dataDir, '--write-env', envFile, '--detach'], bare, dir);
    try {
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(fs.readFileSync(envFile, 'utf8')).toContain('SECRETS_TOKEN=planted-root-token');
    } finally {
      await cliAsync(['emulator', 'stop', envFile], bare, dir);
    }
  });
});
